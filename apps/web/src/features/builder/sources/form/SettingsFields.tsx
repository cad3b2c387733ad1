import { ONLY_NEW_LABEL, type Source, type SourceInputOf, type SourceType } from '@digest/contracts';
import { sourceTitle } from '@digest/email/blocks';
import { Button } from '#web/components/ui/Button';
import { Checkbox } from '#web/components/ui/Checkbox';
import { SelectField } from '#web/components/ui/SelectField';
import { TextField } from '#web/components/ui/TextField';
import styles from './SettingsFields.module.css';
import type { SourceForm } from './use-source-form';

type FieldOf<T extends SourceType> = keyof SourceInputOf<T> & string;

interface FieldProps<T extends SourceType> {
  form: SourceForm<T>;
  field: FieldOf<T>;
  label: string;
}

/**
 * The block's display name. Empty shows the kind's (or the feed's, subreddit's, channel's) own name, the
 * heading the block falls back to: that is the placeholder unless one is given.
 */
export function NameField<T extends SourceType>({
  form,
  placeholder,
}: {
  form: SourceForm<T>;
  placeholder?: string;
}) {
  const values = form.values as { name?: string };
  return (
    <TextField
      label="Source name"
      name="name"
      value={values.name ?? ''}
      placeholder={placeholder ?? sourceTitle({ ...form.values, name: '' } as Source)}
      maxLength={120}
      error={form.errors.name}
      onChange={(event) => form.set('name' as FieldOf<T>, event.target.value as never)}
    />
  );
}

/**
 * A count between `min` (0 unless the kind says) and `max` (docs/product.md §5 ranges); what the user types is
 * kept so a mistake can be seen.
 */
export function CountField<T extends SourceType>({
  form,
  field,
  label,
  min = 0,
  max,
}: FieldProps<T> & { min?: number; max: number }) {
  const value = (form.values as Record<string, unknown>)[field];
  return (
    <TextField
      label={label}
      name={field}
      type="number"
      inputMode="numeric"
      min={min}
      max={max}
      step={1}
      value={typeof value === 'number' && Number.isFinite(value) ? value : ''}
      error={form.errors[field]}
      hint={`${min} to ${max}`}
      onChange={(event) => {
        const text = event.target.value;
        form.set(field, (text === '' ? undefined : Number(text)) as never);
      }}
    />
  );
}

/**
 * One of a setting's options (layout, images, content, forecast …), labelled as docs/product.md §9 words them.
 * `locked`: another setting decides this one for now, so the select shows that value, disabled, and says why.
 */
export function ChoiceField<T extends SourceType>({
  form,
  field,
  label,
  options,
  locked,
}: FieldProps<T> & {
  options: readonly { value: string | number; label: string }[];
  locked?: { value: string | number; reason: string } | null;
}) {
  const value = locked ? locked.value : (form.values as Record<string, unknown>)[field];
  return (
    <SelectField
      label={label}
      name={field}
      disabled={Boolean(locked)}
      hint={locked?.reason}
      value={String(value ?? options[0]?.value ?? '')}
      options={options.map((option) => ({ value: String(option.value), label: option.label }))}
      error={form.errors[field]}
      onChange={(event) => {
        const picked = options.find((option) => String(option.value) === event.target.value);
        if (picked) form.set(field, picked.value as never);
      }}
    />
  );
}

export function ToggleField<T extends SourceType>({ form, field, label }: FieldProps<T>) {
  const value = (form.values as Record<string, unknown>)[field];
  return (
    <Checkbox
      label={label}
      name={field}
      checked={value === true}
      onChange={(event) => form.set(field, event.target.checked as never)}
    />
  );
}

/**
 * A list kind's "Only new items" (docs/product.md §3 "Every item once"): on, an issue leaves out what an
 * earlier issue of the digest carried.
 */
export function OnlyNewField<T extends SourceType>({ form }: { form: SourceForm<T> }) {
  return <ToggleField form={form} field={'onlyNew' as FieldOf<T>} label={ONLY_NEW_LABEL} />;
}

/** The settings form's frame: its fields, then Save (disabled until the settings are valid). */
export function SettingsForm({
  children,
  canSave,
  onSave,
  saveLabel = 'Save',
}: {
  children: React.ReactNode;
  canSave: boolean;
  onSave: () => void;
  saveLabel?: string;
}) {
  return (
    <form
      className={styles.form}
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        if (canSave) onSave();
      }}
    >
      {children}
      <Button type="submit" disabled={!canSave} className={styles.save}>
        {saveLabel}
      </Button>
    </form>
  );
}
