import type { CalendarEvent } from '@digest/contracts/content';
import { emailClass as c } from '../../components/theme';
import { formatClock } from '../format';
import { blockStyles as s } from '../styles';
import { sourceTitle } from '../titles';
import type { BlockProps } from '../types';
import { BlockFrame, Empty, ErrorNotice, ItemTitle } from './parts';

/** '9:00 AM – 10:30 AM' or '09:00 – 10:30' as the source asks, 'All day' for all-day events. */
function eventTime(event: CalendarEvent, format: '12h' | '24h'): string {
  if (!event.startTime) return event.duration || 'All day';
  const start = formatClock(event.startTime, format);
  return event.endTime ? `${start} – ${formatClock(event.endTime, format)}` : start;
}

/** The line under an event's title: its time and length, or 'Birthday'. */
function eventMeta(event: CalendarEvent, format: '12h' | '24h'): string {
  if (event.kind === 'birthday') return 'Birthday';
  const length = event.startTime && event.duration ? ` (${event.duration})` : '';
  return `${eventTime(event, format)}${length}`;
}

/** 'Out of office: Day off (all day)': time away is a line of its own, not a meeting with a colour. */
function awayLine(event: CalendarEvent, format: '12h' | '24h'): string {
  const when = event.startTime ? eventTime(event, format) : 'all day';
  return `Out of office: ${event.title} (${when})`;
}

/** A colour the calendar gave, only when it is a plain CSS colour (it goes into a style). */
const safeColor = (color: string) => (/^#[0-9a-f]{3,8}$|^[a-z]+$/i.test(color) ? color : '#039be5');

/** GOOGLE_CALENDAR: the period's events grouped by day, times in 12 or 24 hours; unreadable accounts named. */
export function CalendarBlock({ source, content }: BlockProps<'GOOGLE_CALENDAR'>) {
  return (
    <BlockFrame title={sourceTitle(source)} showHeading={source.showHeading} subtitle={content.timePeriod}>
      {content.errors.map((error) => (
        <ErrorNotice key={error.email}>{`${error.email} could not be read: ${error.message}`}</ErrorNotice>
      ))}
      {content.days.length === 0 ? <Empty>No events</Empty> : null}
      {content.days.map((day) => (
        <div key={day.date} style={s.item}>
          <h3 className={c.heading} style={{ ...s.title, fontSize: '15px', margin: '0 0 8px' }}>
            {day.label}
          </h3>
          {day.events.map((event, index) =>
            event.kind === 'outOfOffice' ? (
              // biome-ignore lint/suspicious/noArrayIndexKey: events have no id; their order within the day is fixed
              <p key={index} className={c.muted} style={{ ...s.meta, margin: '0 0 8px' }}>
                {awayLine(event, source.eventTime)}
              </p>
            ) : (
              <table
                // Events have no id in the content; their order within the day is fixed.
                // biome-ignore lint/suspicious/noArrayIndexKey: see above
                key={index}
                role="presentation"
                width="100%"
                cellPadding={0}
                cellSpacing={0}
                style={{ ...s.columns, margin: '0 0 8px' }}
              >
                <tbody>
                  <tr>
                    <td
                      width={4}
                      style={{ width: '4px', backgroundColor: safeColor(event.color), borderRadius: '2px' }}
                    />
                    <td style={{ paddingLeft: '12px', verticalAlign: 'top' }}>
                      <ItemTitle href={event.calendarLink}>{event.title}</ItemTitle>
                      <p className={c.muted} style={s.meta}>
                        {eventMeta(event, source.eventTime)}
                      </p>
                    </td>
                  </tr>
                </tbody>
              </table>
            ),
          )}
        </div>
      ))}
    </BlockFrame>
  );
}
