import type { NewsletterSender } from '@digest/contracts';
import { SenderCard } from './SenderCard';
import styles from './SendersList.module.css';

/** Everyone who has sent to the address, with what becomes of their mail. */
export function SendersList({ senders }: { senders: NewsletterSender[] }) {
  return (
    <section className={styles.senders} aria-labelledby="senders-title">
      <h2 id="senders-title" className={styles.heading}>
        Senders
      </h2>
      {senders.length === 0 ? (
        <p className={styles.empty}>
          Nobody has sent to your address yet. Each newsletter that does is listed here, included in your
          digests until you mute or block it.
        </p>
      ) : (
        <ul className={styles.list}>
          {senders.map((sender) => (
            <li key={sender.senderId}>
              <SenderCard sender={sender} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
