import {
  CONDITION_LABELS,
  MAX_REVENUE_CHANGE_PERCENT,
  type SourceInputOf,
  type SourceType,
} from '@digest/contracts';
import { TextField } from '#web/components/ui/TextField';
import styles from './SettingsFields.module.css';
import type { SourceForm } from './use-source-form';

/**
 * docs/product.md §3 "Conditions": a source's optional rules, under `conditions` in its settings, checked
 * by the kind's schema like every other field. An emptied field removes its condition, and no condition
 * left removes `conditions`, so a source nobody gave a condition saves exactly as before.
 */

type Tree = { [key: string]: unknown };

/** `tree` with `value` at `path` (undefined removes it), without the objects that are left empty. */
function withValue(tree: Tree | undefined, path: readonly string[], value: unknown): Tree | undefined {
  const [head, ...rest] = path;
  if (head === undefined) return tree;
  const next: Tree = { ...tree };
  const child = rest.length === 0 ? value : withValue(next[head] as Tree | undefined, rest, value);
  if (child === undefined) delete next[head];
  else next[head] = child;
  return Object.keys(next).length === 0 ? undefined : next;
}

function valueAt(tree: unknown, path: readonly string[]): unknown {
  return path.reduce<unknown>((node, key) => (node as Tree | undefined)?.[key], tree);
}

/** One number under `conditions` (`path` inside it); empty means no such condition. */
function ConditionNumber<T extends SourceType>({
  form,
  path,
  label,
  min,
  max,
  hint,
  whole = true,
}: {
  form: SourceForm<T>;
  path: readonly string[];
  label: string;
  min: number;
  max: number;
  hint: string;
  whole?: boolean;
}) {
  const conditions = (form.values as { conditions?: Tree }).conditions;
  const value = valueAt(conditions, path);
  return (
    <TextField
      label={label}
      name={`conditions.${path.join('.')}`}
      type="number"
      inputMode={whole ? 'numeric' : 'decimal'}
      min={min}
      max={max}
      step={whole ? 1 : 'any'}
      value={typeof value === 'number' && Number.isFinite(value) ? value : ''}
      error={form.errors[`conditions.${path.join('.')}`]}
      hint={hint}
      onChange={(event) => {
        const text = event.target.value;
        const next = withValue(conditions, path, text === '' ? undefined : Number(text));
        form.set('conditions' as keyof SourceInputOf<T>, next as never);
      }}
    />
  );
}

/** The frame of a source's conditions: a titled group that says they are optional. */
function ConditionsGroup({ children }: { children: React.ReactNode }) {
  return (
    <fieldset className={styles.group}>
      <legend className={styles.legend}>Conditions</legend>
      <p className={styles.note}>Optional. Leave a field empty for no condition.</p>
      {children}
    </fieldset>
  );
}

/** Any list source: only when it has at least N new items (up to the kind's count). */
function NewItemsField<T extends SourceType>({ form, max }: { form: SourceForm<T>; max: number }) {
  return (
    <ConditionNumber
      form={form}
      path={['minNewItems']}
      label={CONDITION_LABELS.minNewItems}
      min={1}
      max={max}
      hint={`1 to ${max}: fewer new items and the source is left out of the issue`}
    />
  );
}

export function ListConditionFields<T extends SourceType>({
  form,
  max,
}: {
  form: SourceForm<T>;
  max: number;
}) {
  return (
    <ConditionsGroup>
      <NewItemsField form={form} max={max} />
    </ConditionsGroup>
  );
}

/** Hacker News and Reddit: only items with enough points and comments; only with N new items. */
export function DiscussionConditionFields<T extends SourceType>({
  form,
  max,
}: {
  form: SourceForm<T>;
  max: number;
}) {
  return (
    <ConditionsGroup>
      <ConditionNumber
        form={form}
        path={['minPoints']}
        label={CONDITION_LABELS.minPoints}
        min={0}
        max={1_000_000}
        hint="Only items with at least this many points"
      />
      <ConditionNumber
        form={form}
        path={['minComments']}
        label={CONDITION_LABELS.minComments}
        min={0}
        max={1_000_000}
        hint="Only items with at least this many comments"
      />
      <NewItemsField form={form} max={max} />
    </ConditionsGroup>
  );
}

/** Weather: only if rain is likely today, or the temperature leaves a range (in the block's unit). */
export function WeatherConditionFields({ form }: { form: SourceForm<'WEATHER'> }) {
  const unit = form.values.temperatureType === 'C' ? '°C' : '°F';
  return (
    <ConditionsGroup>
      <ConditionNumber
        form={form}
        path={['rainAtLeast']}
        label={CONDITION_LABELS.rainAtLeast}
        min={0}
        max={100}
        hint="0 to 100: send the weather only if today's chance of rain is at least this"
      />
      <ConditionNumber
        form={form}
        path={['temperatureOutside', 'min']}
        label={`${CONDITION_LABELS.temperatureMin} (${unit})`}
        min={-150}
        max={150}
        whole={false}
        hint="Or if today gets colder than this"
      />
      <ConditionNumber
        form={form}
        path={['temperatureOutside', 'max']}
        label={`${CONDITION_LABELS.temperatureMax} (${unit})`}
        min={-150}
        max={150}
        whole={false}
        hint="Or warmer than this"
      />
    </ConditionsGroup>
  );
}

/** Stripe: only if an account's revenue changed by more than N % from the day before. */
export function StripeConditionFields({ form }: { form: SourceForm<'STRIPE'> }) {
  return (
    <ConditionsGroup>
      <ConditionNumber
        form={form}
        path={['revenueChangeAbove']}
        label={CONDITION_LABELS.revenueChangeAbove}
        min={0}
        max={MAX_REVENUE_CHANGE_PERCENT}
        whole={false}
        hint={`0 to ${MAX_REVENUE_CHANGE_PERCENT}: send the figures only if revenue moved more than this from the day before`}
      />
    </ConditionsGroup>
  );
}
