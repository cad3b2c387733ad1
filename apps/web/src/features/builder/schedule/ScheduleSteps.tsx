import {
  type IssueRetentionMonths,
  MAX_SOURCES,
  MIN_SOURCES_TO_SEND_LABEL,
  minSourcesToSendSchema,
  type Schedule,
  type ScheduleType,
  SEND_ONLY_WHEN_NEW_LABEL,
} from '@digest/contracts';
import { type FormEvent, type RefObject, useEffect, useId, useRef } from 'react';
import { Button } from '#web/components/ui/Button';
import { Checkbox } from '#web/components/ui/Checkbox';
import { SelectField, type SelectOption } from '#web/components/ui/SelectField';
import { Spinner } from '#web/components/ui/Spinner';
import { TextField } from '#web/components/ui/TextField';
import { NextSends } from '#web/features/digests';
import { FriendsField } from './FriendsField';
import styles from './SchedulePopup.module.css';
import {
  FREQUENCY_OPTIONS,
  MONTH_DAY_OPTIONS,
  RETENTION_OPTIONS,
  TIME_OPTIONS,
  WEEK_DAY_OPTIONS,
} from './schedule-options';

/** docs/product.md §2 "Schedule popup": init, building, done; and the error of docs/product.md §4 "Completing a digest". */
export type ScheduleStep = 'init' | 'building' | 'done' | 'error';

/** The popup's title at each step (the dialog is named by it). */
export function scheduleStepTitle(step: ScheduleStep, editing: boolean): string {
  switch (step) {
    case 'init':
      return editing ? 'Update your Digest' : 'Schedule your Digest';
    case 'building':
      return 'Your Digest is being built';
    case 'done':
      return 'Well done!';
    case 'error':
      return 'Your Digest was not saved';
  }
}

export interface ScheduleFormProps {
  zone: string;
  zoneOptions: readonly SelectOption[];
  onZoneChange: (zone: string) => void;
  schedule: Schedule;
  onScheduleChange: (schedule: Schedule) => void;
  retention: IssueRetentionMonths;
  onRetentionChange: (months: IssueRetentionMonths) => void;
  sendOnlyWhenNew: boolean;
  onSendOnlyWhenNewChange: (on: boolean) => void;
  /** docs/product.md §3 "Conditions": 0 sends every issue; NaN while the field is not a number. */
  minSourcesToSend: number;
  onMinSourcesToSendChange: (count: number) => void;
  friends: readonly string[];
  onFriendsChange: (friends: string[]) => void;
  /** 'Done' for a new digest, 'Update digest' in edit mode. */
  submitLabel: string;
  /** Why the button is disabled (a source failed to load), or null. */
  blockedReason: string | null;
  onSubmit: () => void;
  /** The clock and zone the next sends are reckoned from: the browser's unless a test fixes them. */
  now?: Date;
  viewerTimeZone?: string;
}

/** Init: time zone, frequency, time of day, weekday or day of month, how long issues are kept, friends; then Done. */
export function ScheduleForm({
  zone,
  zoneOptions,
  onZoneChange,
  schedule,
  onScheduleChange,
  retention,
  onRetentionChange,
  sendOnlyWhenNew,
  onSendOnlyWhenNewChange,
  minSourcesToSend,
  onMinSourcesToSendChange,
  friends,
  onFriendsChange,
  submitLabel,
  blockedReason,
  onSubmit,
  now,
  viewerTimeZone,
}: ScheduleFormProps) {
  const reasonId = useId();
  const minSourcesCheck = minSourcesToSendSchema.safeParse(minSourcesToSend);
  const minSourcesError = minSourcesCheck.success ? undefined : minSourcesCheck.error.issues[0]?.message;
  // A wrong count is said under its own field (announced there); Done waits for it without repeating it.
  const blocked = blockedReason !== null || minSourcesError !== undefined;
  const change = (patch: Partial<Schedule>) => onScheduleChange({ ...schedule, ...patch });
  function submit(event: FormEvent) {
    event.preventDefault();
    if (!blocked) onSubmit();
  }
  return (
    <form className={styles.form} onSubmit={submit} noValidate>
      <SelectField
        label="Timezone"
        name="timezone"
        value={zone}
        options={zoneOptions}
        hint="Your Digests are sent at this zone's time."
        onChange={(event) => onZoneChange(event.target.value)}
      />
      <div className={styles.when}>
        <SelectField
          label="Frequency"
          name="scheduleType"
          value={schedule.scheduleType}
          options={FREQUENCY_OPTIONS}
          onChange={(event) => change({ scheduleType: event.target.value as ScheduleType })}
        />
        <SelectField
          label="Time of day"
          name="time"
          value={schedule.time}
          options={TIME_OPTIONS}
          onChange={(event) => change({ time: event.target.value })}
        />
        {schedule.scheduleType === 'weekly' ? (
          <SelectField
            label="Weekday"
            name="weekDay"
            value={String(schedule.weekDay)}
            options={WEEK_DAY_OPTIONS}
            onChange={(event) => change({ weekDay: Number(event.target.value) })}
          />
        ) : null}
        {schedule.scheduleType === 'monthly' ? (
          <SelectField
            label="Day of month"
            name="monthDay"
            value={String(schedule.monthDay)}
            options={MONTH_DAY_OPTIONS}
            hint="In shorter months, on their last day."
            onChange={(event) => change({ monthDay: Number(event.target.value) })}
          />
        ) : null}
      </div>
      <NextSends schedule={schedule} timeZone={zone} now={now} viewerTimeZone={viewerTimeZone} />
      <SelectField
        label="Keep issues for"
        name="issueRetentionMonths"
        value={String(retention)}
        options={RETENTION_OPTIONS}
        hint="Older issues are deleted, with their public pages."
        onChange={(event) => onRetentionChange(Number(event.target.value) as IssueRetentionMonths)}
      />
      <Checkbox
        label={SEND_ONLY_WHEN_NEW_LABEL}
        name="sendOnlyWhenNew"
        checked={sendOnlyWhenNew}
        onChange={(event) => onSendOnlyWhenNewChange(event.target.checked)}
      />
      <TextField
        label={MIN_SOURCES_TO_SEND_LABEL}
        name="minSourcesToSend"
        type="number"
        inputMode="numeric"
        min={0}
        max={MAX_SOURCES}
        step={1}
        value={Number.isFinite(minSourcesToSend) ? minSourcesToSend : ''}
        error={minSourcesError}
        hint="0 sends every issue. A source has something to say when its block has content after its conditions."
        onChange={(event) =>
          onMinSourcesToSendChange(event.target.value === '' ? 0 : Number(event.target.value))
        }
      />
      <FriendsField friends={friends} onChange={onFriendsChange} />
      <div className={styles.actions}>
        {blockedReason ? (
          <p id={reasonId} className={styles.blocked}>
            {blockedReason}
          </p>
        ) : null}
        <Button type="submit" disabled={blocked} aria-describedby={blockedReason ? reasonId : undefined}>
          {submitLabel}
        </Button>
      </div>
    </form>
  );
}

/** Building: docs/product.md §2 text, announced as a status. */
export function BuildingStep() {
  return (
    <div className={styles.centered} role="status">
      <p>This could take a few seconds</p>
      <Spinner className={styles.bigSpinner} />
      <p className={styles.muted}>Please wait...</p>
    </div>
  );
}

/** A step that replaces the one the user acted in gets focus on its button, not lost on the page. */
function useFocusOnMount(): RefObject<HTMLButtonElement | null> {
  const ref = useRef<HTMLButtonElement>(null);
  useEffect(() => ref.current?.focus(), []);
  return ref;
}

export function DoneStep({
  email,
  notices,
  onGoToDigests,
}: {
  email: string;
  notices: readonly string[];
  onGoToDigests: () => void;
}) {
  const goRef = useFocusOnMount();
  return (
    <div className={styles.centered}>
      <p>Your Digest will be sent to:</p>
      <p className={styles.email}>
        <strong>{email}</strong>
      </p>
      <p className={styles.muted}>You can also read it in your account</p>
      {notices.map((notice) => (
        <p key={notice} className={styles.notice}>
          {notice}
        </p>
      ))}
      <Button ref={goRef} onClick={onGoToDigests}>
        Go to Digests
      </Button>
    </div>
  );
}

/** docs/product.md §8 "Digest build failure": the fixed text, the server's reason under it, and Edit back to init. */
export function ErrorStep({ message, onEdit }: { message: string; onEdit: () => void }) {
  const editRef = useFocusOnMount();
  return (
    <div className={styles.centered}>
      <div role="alert">
        <p className={styles.errorTitle}>Something went wrong. Enter correct data.</p>
        <p className={styles.muted}>{message}</p>
      </div>
      <Button ref={editRef} variant="secondary" onClick={onEdit}>
        Edit
      </Button>
    </div>
  );
}
