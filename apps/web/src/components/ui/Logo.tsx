import styles from './Logo.module.css';

/** The Digest mark and word mark; the visible word is the accessible name. */
export function Logo() {
  return (
    <span className={styles.logo}>
      <svg className={styles.mark} viewBox="0 0 32 32" aria-hidden="true" focusable="false">
        <rect width="32" height="32" rx="8" fill="currentColor" />
        <path
          d="M9 9.5h14M9 16h14M9 22.5h9"
          stroke="#fff"
          strokeWidth="3"
          strokeLinecap="round"
          fill="none"
        />
      </svg>
      <span className={styles.word}>Digest</span>
    </span>
  );
}
