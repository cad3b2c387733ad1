import { describe, expect, it } from 'vitest';
import { renderWithAccounts, testAccount } from '../connect/test-accounts';
import { buttonTag, panelProps } from '../form/render-panel';
import { CalendarPanel } from './CalendarPanel';
import { calendarAccountOf } from './calendar-accounts';

const ada = testAccount('GOOGLE', 'g1', 'ada');
const work = testAccount('GOOGLE', 'g2', 'work');

const edit = (initial: Parameters<typeof CalendarPanel>[0]['initial'], accounts = [ada, work]) =>
  renderWithAccounts(<CalendarPanel {...panelProps('GOOGLE_CALENDAR', 'edit', { initial })} />, accounts);

describe('Google Calendar settings (docs/product.md §4, §9)', () => {
  it('an included account gets the schema defaults: events on, holidays and birthdays off', () => {
    expect(calendarAccountOf(ada)).toEqual({
      tokenId: 'g1',
      email: 'ada@example.com',
      events: true,
      holidays: false,
      birthdays: false,
    });
  });

  it("a new calendar shows 'Next 7 days of events' and 12 Hours, and cannot be saved before an account is chosen", () => {
    const html = edit(null);
    expect(html).toMatch(/<option value="week" selected="">Next 7 days of events<\/option>/);
    expect(html).toMatch(/<option value="12h" selected="">12 Hours<\/option>/);
    expect(html).toContain('<legend');
    expect(html).toContain('ada@example.com');
    expect(html).toContain('work@example.com');
    expect(buttonTag(html, 'Save')).toContain('disabled');
  });

  it('with an account chosen its options show and Save is enabled', () => {
    const html = edit({
      type: 'GOOGLE_CALENDAR',
      name: '',
      showHeading: true,
      eventType: 'today',
      eventTime: '24h',
      selectedEvents: [{ ...calendarAccountOf(ada), birthdays: true }],
    });
    expect(html).toMatch(/<option value="today" selected="">Today&#x27;s<\/option>/);
    expect(html).toContain('Birthdays');
    expect(buttonTag(html, 'Save')).not.toContain('disabled');
  });

  it('is not saved without a connected Google account', () => {
    const html = edit(
      {
        type: 'GOOGLE_CALENDAR',
        name: '',
        showHeading: true,
        eventType: 'week',
        eventTime: '12h',
        selectedEvents: [calendarAccountOf(ada)],
      },
      [],
    );
    expect(buttonTag(html, 'Save')).toContain('disabled');
  });
});
