import { CALENDAR_EVENT_OPTIONS, CALENDAR_TIME_OPTIONS, SOURCE_LABELS } from '@digest/contracts';
import { AccountChoices } from '../connect/AccountChoices';
import { ConnectStep } from '../connect/ConnectStep';
import { useBackToConnect, useProviderAccounts } from '../connect/use-provider-accounts';
import { ChoiceField, NameField, SettingsForm } from '../form/SettingsFields';
import { settingDefaults } from '../form/setting-defaults';
import { useSourceForm } from '../form/use-source-form';
import type { SourcePanelProps } from '../panel';
import { type CalendarAccount, calendarAccountOf } from './calendar-accounts';

const CALENDAR_FLAGS = [
  { field: 'events', label: 'Events' },
  { field: 'holidays', label: 'Holidays' },
  { field: 'birthdays', label: 'Birthdays' },
] as const;

/**
 * docs/product.md §4 Google Calendar: connect a Google account, then choose the period, the time format and, per
 * account, whether it is read and which of its calendars. Save needs a connected account chosen.
 */
export function CalendarPanel({
  step,
  goTo,
  initial,
  onChange,
  onSave,
}: SourcePanelProps<'GOOGLE_CALENDAR'>) {
  if (step === 'connect') return <ConnectStep provider="GOOGLE" onContinue={() => goTo('edit')} />;
  return <CalendarSettings goTo={goTo} initial={initial} onChange={onChange} onSave={onSave} />;
}

function CalendarSettings({
  goTo,
  initial,
  onChange,
  onSave,
}: Pick<SourcePanelProps<'GOOGLE_CALENDAR'>, 'goTo' | 'initial' | 'onChange' | 'onSave'>) {
  const form = useSourceForm(
    'GOOGLE_CALENDAR',
    { ...settingDefaults('GOOGLE_CALENDAR'), ...initial },
    onChange,
  );
  const { accounts } = useProviderAccounts('GOOGLE');
  useBackToConnect(accounts?.length === 0, goTo);
  const chosen: CalendarAccount[] = form.source?.selectedEvents ?? [];
  const canSave = form.source !== null && (accounts?.length ?? 0) > 0 && chosen.length > 0;
  return (
    <SettingsForm canSave={canSave} onSave={() => form.source && onSave(form.source)}>
      <NameField form={form} placeholder={SOURCE_LABELS.GOOGLE_CALENDAR} />
      <ChoiceField form={form} field="eventType" label="Events" options={CALENDAR_EVENT_OPTIONS} />
      <ChoiceField form={form} field="eventTime" label="Time" options={CALENDAR_TIME_OPTIONS} />
      <AccountChoices
        accounts={accounts ?? []}
        chosen={(form.values.selectedEvents ?? []) as CalendarAccount[]}
        flags={CALENDAR_FLAGS}
        entryOf={calendarAccountOf}
        onChange={(selectedEvents) => form.set('selectedEvents', selectedEvents)}
        onLoggedOut={() => goTo('connect')}
      />
    </SettingsForm>
  );
}
