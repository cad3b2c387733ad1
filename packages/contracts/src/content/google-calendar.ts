export interface CalendarEvent {
  title: string;
  /** Formatted in the owner's zone per eventTime ('9:00 AM' or '09:00'); '' for all-day events. */
  startTime: string;
  endTime: string;
  /** e.g. '1h 30m', 'All day'. */
  duration: string;
  /** CSS colour of the calendar. */
  color: string;
  calendarLink: string;
  /** The account (e-mail) the event came from. */
  account: string;
}

export interface CalendarDay {
  /** ISO date in the owner's zone. */
  date: string;
  /** e.g. 'Sunday, November 22'. */
  label: string;
  events: CalendarEvent[];
}

export interface CalendarContent {
  /** 'today' | 'tomorrow' | 'week'. */
  timeStatus: string;
  /** Human period, e.g. 'Nov 22 – Nov 28'. */
  timePeriod: string;
  days: CalendarDay[];
  /** Accounts that could not be read, with why (the other accounts still show). */
  errors: { email: string; message: string }[];
}
