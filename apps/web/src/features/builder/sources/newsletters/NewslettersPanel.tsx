import {
  NEWSLETTER_LAYOUT_OPTIONS,
  type NewsletterSender,
  SOURCE_POST_LIMITS,
  sourceKinds,
} from '@digest/contracts';
import { Checkbox } from '#web/components/ui/Checkbox';
import { SelectField } from '#web/components/ui/SelectField';
import { useNewsletterMailbox } from '../../api/newsletters-api';
import { ChoiceField, CountField, NameField, SettingsForm } from '../form/SettingsFields';
import fieldStyles from '../form/SettingsFields.module.css';
import { settingDefaults } from '../form/setting-defaults';
import { useSourceForm } from '../form/use-source-form';
import type { SourcePanelProps } from '../panel';
import styles from './NewslettersPanel.module.css';

const SENDER_OPTIONS = [
  { value: 'all', label: 'All included senders' },
  { value: 'chosen', label: 'Chosen senders' },
] as const;

/** Why a chosen sender brings nothing to digests: its state on the Newsletters page. */
const SENDER_NOTES: Partial<Record<NewsletterSender['state'], string>> = {
  muted: 'muted: not in digests',
  blocked: 'blocked: not in digests',
  unsubscribed: 'unsubscribed',
};

/**
 * Newsletters (issue 14): all the senders included in digests or chosen ones, how many, and the layout
 * (title, sender and excerpt with a link to read it in the app, or the whole issue). A user without any
 * newsletter yet is shown their address, to subscribe with.
 */
export function NewslettersPanel({ type, initial, onChange, onSave }: SourcePanelProps<'NEWSLETTERS'>) {
  const form = useSourceForm(type, initial ?? settingDefaults(type), onChange);
  const mailbox = useNewsletterMailbox();
  const senders = mailbox.data?.senders ?? [];
  const chosen = Array.isArray(form.values.senders) ? form.values.senders : null;
  const choose = (senderId: string, on: boolean) => {
    const list = (chosen ?? []).filter((id) => id !== senderId);
    form.set('senders', on ? [...list, senderId] : list);
  };
  return (
    <SettingsForm canSave={form.source !== null} onSave={() => form.source && onSave(form.source)}>
      {mailbox.data?.receiving === false ? (
        <div className={styles.hint} role="note">
          <p>
            This server does not receive newsletters yet (its operator sets INBOUND_SMTP_PORT), so this block
            stays empty until it does.
          </p>
        </div>
      ) : null}
      {mailbox.data && senders.length === 0 ? (
        <div className={styles.hint} role="note">
          <p>No newsletters yet.</p>
          {mailbox.data.address ? (
            <p>
              Subscribe to newsletters with <strong>{mailbox.data.address}</strong>: what arrives there comes
              to this block.
            </p>
          ) : (
            <p>Choose a username in your profile to get your newsletter address.</p>
          )}
        </div>
      ) : null}
      <NameField form={form} />
      <SelectField
        label="Senders"
        name="senderChoice"
        value={chosen === null ? 'all' : 'chosen'}
        options={SENDER_OPTIONS}
        onChange={(event) => form.set('senders', event.target.value === 'all' ? 'all' : [])}
      />
      {chosen !== null ? (
        <fieldset className={fieldStyles.group}>
          <legend className="visually-hidden">Chosen senders</legend>
          {senders.map((sender) => (
            <Checkbox
              key={sender.senderId}
              name="sender"
              value={sender.senderId}
              label={[sender.name || sender.address, SENDER_NOTES[sender.state]].filter(Boolean).join(' · ')}
              checked={chosen.includes(sender.senderId)}
              onChange={(event) => choose(sender.senderId, event.target.checked)}
            />
          ))}
          {form.errors.senders ? (
            <p className={styles.error} role="alert">
              {form.errors.senders}
            </p>
          ) : null}
        </fieldset>
      ) : null}
      <CountField
        form={form}
        field="count"
        label="Number of newsletters"
        min={sourceKinds.NEWSLETTERS.count.min}
        max={SOURCE_POST_LIMITS.NEWSLETTERS}
      />
      <ChoiceField form={form} field="layout" label="Layout" options={NEWSLETTER_LAYOUT_OPTIONS} />
    </SettingsForm>
  );
}
