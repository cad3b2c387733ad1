import { type ConnectedAccount, type GoogleCalendarSource, SOURCE_SCHEMAS } from '@digest/contracts';

export type CalendarAccount = NonNullable<GoogleCalendarSource['selectedEvents']>[number];

/**
 * A Google account as it is first included in selectedEvents: its tokenId and e-mail, with the options
 * the shared schema starts it with (events on, holidays and birthdays off).
 */
export function calendarAccountOf(account: ConnectedAccount): CalendarAccount {
  const parsed = SOURCE_SCHEMAS.GOOGLE_CALENDAR.parse({
    type: 'GOOGLE_CALENDAR',
    selectedEvents: [{ tokenId: account.tokenId, email: account.email ?? account.username ?? '' }],
  });
  const [entry] = parsed.selectedEvents ?? [];
  if (!entry) throw new Error('A calendar account always parses to one entry');
  return entry;
}
