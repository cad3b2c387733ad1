// @vitest-environment happy-dom
import { DIGEST_DEFAULTS, type Schedule } from '@digest/contracts';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { ScheduleForm } from './ScheduleSteps';

afterEach(cleanup);

const noop = () => {};
/** Sunday 2026-10-25, 12:00 in New York: a week before its clocks go back. */
const NOW = new Date('2026-10-25T16:00:00Z');

/** The popup's form with its own state, as the popup holds it, on a fixed clock and viewer's zone. */
function Popup({ viewerTimeZone }: { viewerTimeZone: string }) {
  const [zone, setZone] = useState('America/New_York');
  const [schedule, setSchedule] = useState<Schedule>({
    scheduleType: DIGEST_DEFAULTS.scheduleType,
    time: DIGEST_DEFAULTS.time,
    weekDay: DIGEST_DEFAULTS.weekDay,
    monthDay: DIGEST_DEFAULTS.monthDay,
  });
  return (
    <ScheduleForm
      zone={zone}
      zoneOptions={[
        { value: 'America/New_York', label: '(UTC-04:00) America/New York' },
        { value: 'Europe/London', label: '(UTC+01:00) Europe/London' },
        { value: 'Australia/Lord_Howe', label: '(UTC+10:30) Australia/Lord Howe' },
      ]}
      onZoneChange={setZone}
      schedule={schedule}
      onScheduleChange={setSchedule}
      retention={DIGEST_DEFAULTS.issueRetentionMonths}
      onRetentionChange={noop}
      sendOnlyWhenNew={false}
      onSendOnlyWhenNewChange={noop}
      minSourcesToSend={0}
      onMinSourcesToSendChange={noop}
      friends={[]}
      onFriendsChange={noop}
      submitLabel="Done"
      blockedReason={null}
      onSubmit={noop}
      now={NOW}
      viewerTimeZone={viewerTimeZone}
    />
  );
}

const nextSends = () => screen.getByRole('region', { name: /Next sends/ });
const listed = () =>
  within(nextSends())
    .getAllByRole('listitem')
    .map((item) => item.textContent);
const choose = (label: string, value: string) =>
  fireEvent.change(screen.getByLabelText(label), { target: { value } });

describe('the schedule popup lists the next five sends, live as the schedule is edited', () => {
  it('daily at 7:00 am in New York, a week before the November change, then Sunday weekly', () => {
    render(<Popup viewerTimeZone="America/New_York" />);
    expect(listed()).toEqual([
      'Mon, Oct 26, 7:00 am',
      'Tue, Oct 27, 7:00 am',
      'Wed, Oct 28, 7:00 am',
      'Thu, Oct 29, 7:00 am',
      'Fri, Oct 30, 7:00 am',
    ]);
    choose('Frequency', 'weekly');
    choose('Weekday', '0');
    choose('Time of day', '07:30');
    expect(listed()).toEqual([
      'Sun, Nov 1, 7:30 amclocks go back on Sun, Nov 1: this issue still comes at 7:30 am your time',
      'Sun, Nov 8, 7:30 am',
      'Sun, Nov 15, 7:30 am',
      'Sun, Nov 22, 7:30 am',
      'Sun, Nov 29, 7:30 am',
    ]);
  });

  it('monthly on the 31st names the months that fall back to their last day', () => {
    render(<Popup viewerTimeZone="America/New_York" />);
    choose('Frequency', 'monthly');
    choose('Day of month', '31');
    expect(listed()[0]).toBe('Sat, Oct 31, 7:00 am');
    expect(listed()[1]).toBe(
      'Mon, Nov 30, 7:00 am' +
        'clocks go back on Sun, Nov 1: this issue still comes at 7:00 am your time' +
        'November has 30 days: this issue comes on the 30th',
    );
    expect(within(nextSends()).getByText(/falls back/).textContent).toBe(
      "The 31st falls back to the month's last day on Nov 30, Feb 28, Apr 30, Jun 30 and Sep 30.",
    );
  });

  it('another zone than the viewer’s: both times, and the owner’s zone named in the heading and notes', () => {
    render(<Popup viewerTimeZone="Europe/London" />);
    expect(screen.getByRole('heading', { name: 'Next sends (America/New_York)' })).toBeTruthy();
    expect(listed()[0]).toBe('Mon, Oct 26, 7:00 amMon, Oct 26, 11:00 am your time');
    choose('Timezone', 'Australia/Lord_Howe');
    expect(screen.getByRole('heading', { name: 'Next sends (Australia/Lord_Howe)' })).toBeTruthy();
    expect(listed()[0]).toBe('Mon, Oct 26, 7:00 amSun, Oct 25, 8:00 pm your time');
  });

  it('the viewer’s own zone: no second time, and no zone in the heading', () => {
    render(<Popup viewerTimeZone="America/New_York" />);
    expect(screen.getByRole('heading', { name: 'Next sends' })).toBeTruthy();
    expect(within(nextSends()).queryByText(/your time$/)).toBeNull();
  });
});
