import {
  DIGEST_DEFAULTS,
  DIGEST_MESSAGES,
  MAX_SUBSCRIBERS,
  MIN_SOURCES_TO_SEND_LABEL,
  type Schedule,
  type Source,
} from '@digest/contracts';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { BlockPreview } from '../api/preview-api';
import { doneBlockedReason } from './done-blocker';
import { addFriend, FriendsField } from './FriendsField';
import {
  BuildingStep,
  DoneStep,
  ErrorStep,
  ScheduleForm,
  type ScheduleFormProps,
  scheduleStepTitle,
} from './ScheduleSteps';

const noop = () => {};
const schedule = (overrides: Partial<Schedule> = {}): Schedule => ({
  scheduleType: DIGEST_DEFAULTS.scheduleType,
  time: DIGEST_DEFAULTS.time,
  weekDay: DIGEST_DEFAULTS.weekDay,
  monthDay: DIGEST_DEFAULTS.monthDay,
  ...overrides,
});

function renderForm(overrides: Partial<ScheduleFormProps> = {}): string {
  return renderToStaticMarkup(
    <ScheduleForm
      zone="Europe/Warsaw"
      zoneOptions={[
        { value: 'America/New_York', label: '(UTC-05:00) America/New York' },
        { value: 'Europe/Warsaw', label: '(UTC+01:00) Europe/Warsaw' },
      ]}
      onZoneChange={noop}
      schedule={schedule()}
      onScheduleChange={noop}
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
      {...overrides}
    />,
  );
}

/** The text of the `<option selected>` of the select labelled `label`. */
function selected(html: string, label: string): string | undefined {
  const id = html.match(new RegExp(`<label[^>]*for="([^"]+)"[^>]*>${label}</label>`))?.[1];
  const select = html.match(new RegExp(`<select[^>]*id="${id}"[^>]*>(.*?)</select>`))?.[1] ?? '';
  return select.match(/<option[^>]*selected=""[^>]*>([^<]*)<\/option>/)?.[1];
}

const submitTag = (html: string) => html.match(/<button[^>]*type="submit"[^>]*>/)?.[0] ?? '';

describe('schedule popup, init step (docs/product.md §2)', () => {
  it('asks for time zone, frequency and time of day, showing the chosen values', () => {
    const html = renderForm({ schedule: schedule({ time: '19:05' }) });
    expect(selected(html, 'Timezone')).toBe('(UTC+01:00) Europe/Warsaw');
    expect(selected(html, 'Frequency')).toBe('Daily');
    expect(selected(html, 'Time of day')).toBe('7:05 pm');
    expect(html).not.toContain('>Weekday</label>');
    expect(html).not.toContain('>Day of month</label>');
  });

  it('asks how long issues are kept: a year by default, a month to two years', () => {
    const html = renderForm();
    expect(selected(html, 'Keep issues for')).toBe('1 year');
    const options = [...html.matchAll(/<option value="(\d+)"[^>]*>(\d+ (?:month|year)s?)<\/option>/g)];
    expect(options.map(([, value, label]) => `${value}:${label}`)).toEqual([
      '1:1 month',
      '3:3 months',
      '6:6 months',
      '12:1 year',
      '24:2 years',
    ]);
    expect(selected(renderForm({ retention: 3 }), 'Keep issues for')).toBe('3 months');
  });

  it('asks for the weekday of a weekly digest and the day of a monthly one', () => {
    const weekly = renderForm({ schedule: schedule({ scheduleType: 'weekly', weekDay: 5 }) });
    expect(selected(weekly, 'Weekday')).toBe('Friday');
    expect(weekly).not.toContain('>Day of month</label>');
    const monthly = renderForm({ schedule: schedule({ scheduleType: 'monthly', monthDay: 22 }) });
    expect(selected(monthly, 'Day of month')).toBe('22nd');
    expect(monthly).not.toContain('>Weekday</label>');
  });

  it("says 'Done' for a new digest and 'Update digest' in edit mode", () => {
    expect(submitTag(renderForm())).not.toContain('disabled');
    expect(renderForm()).toMatch(/type="submit"[^>]*>Done<\/button>/);
    expect(renderForm({ submitLabel: 'Update digest' })).toMatch(
      /type="submit"[^>]*>Update digest<\/button>/,
    );
  });

  it('disables the button while a source has an error, and says why next to it', () => {
    const reason = 'Some content could not be loaded: edit or remove this source first: Weather.';
    const html = renderForm({ blockedReason: reason });
    const tag = submitTag(html);
    expect(tag).toContain('disabled');
    const describedBy = tag.match(/aria-describedby="([^"]+)"/)?.[1];
    expect(html).toContain(`<p id="${describedBy}"`);
    expect(html).toContain(reason);
  });

  it('asks how many sources must have something to say: 0 (every issue) by default', () => {
    const html = renderForm();
    expect(html).toContain(`>${MIN_SOURCES_TO_SEND_LABEL}</label>`);
    expect(html).toMatch(/name="minSourcesToSend"[^>]*value="0"|value="0"[^>]*name="minSourcesToSend"/);
    expect(submitTag(html)).not.toContain('disabled');
  });

  it.each([
    [-1, 'Sources needed must be from 0 to 20'],
    [21, 'Sources needed must be from 0 to 20'],
    [1.5, 'Sources needed must be a whole number'],
  ])('refuses %s sources needed with the schema message, and Done waits for a good one', (count, message) => {
    const html = renderForm({ minSourcesToSend: count });
    expect(html).toContain(message);
    expect(html).toContain('aria-invalid="true"');
    expect(submitTag(html)).toContain('disabled');
  });

  it('has the share-with-friends box with its plus button', () => {
    const html = renderForm();
    expect(html).toContain('<legend');
    expect(html).toContain('Share with friends');
    expect(html).toContain('aria-label="Add email to the list"');
  });
});

describe('share with friends (docs/product.md §5)', () => {
  it("refuses a bad address with '{email} should be a valid email!'", () => {
    expect(addFriend('not-an-email', [])).toEqual({
      ok: false,
      error: 'not-an-email should be a valid email!',
    });
  });

  it('puts a valid address at the front of the list, normalised', () => {
    expect(addFriend(' Bob@Example.com ', ['ann@example.com'])).toEqual({
      ok: true,
      friends: ['bob@example.com', 'ann@example.com'],
    });
  });

  it('refuses an address already listed, and a friend past the limit', () => {
    expect(addFriend('ann@example.com', ['ann@example.com']).ok).toBe(false);
    const full = Array.from({ length: MAX_SUBSCRIBERS }, (_, index) => `f${index}@example.com`);
    expect(addFriend('new@example.com', full)).toEqual({ ok: false, error: DIGEST_MESSAGES.maxSubscribers });
  });

  it('lists the friends, each with a remove button', () => {
    const html = renderToStaticMarkup(
      <FriendsField friends={['bob@example.com', 'ann@example.com']} onChange={noop} />,
    );
    expect(html.indexOf('bob@example.com')).toBeLessThan(html.indexOf('ann@example.com'));
    expect(html).toContain('aria-label="Remove bob@example.com from the list"');
    expect(html).toContain('aria-label="Remove ann@example.com from the list"');
  });
});

describe('schedule popup, later steps (docs/product.md §2, §4)', () => {
  it('names each step', () => {
    expect(scheduleStepTitle('init', false)).toBe('Schedule your Digest');
    expect(scheduleStepTitle('init', true)).toBe('Update your Digest');
    expect(scheduleStepTitle('building', false)).toBe('Your Digest is being built');
    expect(scheduleStepTitle('done', false)).toBe('Well done!');
  });

  it('building: asks to wait, as a status', () => {
    const html = renderToStaticMarkup(<BuildingStep />);
    expect(html).toContain('role="status"');
    expect(html).toContain('This could take a few seconds');
    expect(html).toContain('Please wait...');
  });

  it("done: where the Digest goes, that it can be read in the account, and 'Go to Digests'", () => {
    const html = renderToStaticMarkup(
      <DoneStep
        email="ada@example.com"
        notices={['Your first issue will come later.']}
        onGoToDigests={noop}
      />,
    );
    expect(html).toContain('Your Digest will be sent to:');
    expect(html).toContain('ada@example.com');
    expect(html).toContain('You can also read it in your account');
    expect(html).toContain('Your first issue will come later.');
    expect(html).toMatch(/<button[^>]*>Go to Digests<\/button>/);
  });

  it("error: the fixed text, the server's message under it, and Edit", () => {
    const html = renderToStaticMarkup(<ErrorStep message="Time must be HH:mm" onEdit={noop} />);
    expect(html).toContain('role="alert"');
    expect(html).toContain('Something went wrong. Enter correct data.');
    expect(html).toContain('Time must be HH:mm');
    expect(html).toMatch(/<button[^>]*>Edit<\/button>/);
  });
});

describe('Done waits for no source to fail (docs/product.md §5)', () => {
  const block = (id: string, source: Partial<Source>) => ({ id, source: source as Source });
  const ok: BlockPreview = { block: null, loading: false, error: null };
  const failed: BlockPreview = { block: null, loading: false, error: 'Feed not found' };
  const blocks = [
    block('a', { type: 'WEATHER', name: '' }),
    block('b', { type: 'RSS', name: 'My feed' }),
    block('c', { type: 'HACKER_NEWS', name: 'Hacker News' }),
    block('d', { type: 'REDDIT', name: '', sourceName: 'programming' }),
  ];

  it('is not blocked while every source loads or has loaded', () => {
    expect(doneBlockedReason(blocks, [ok, { ...ok, loading: true }, ok, ok])).toBeNull();
  });

  it('names the sources that failed as their blocks are titled', () => {
    expect(doneBlockedReason(blocks, [failed, failed, ok, failed])).toBe(
      'Some content could not be loaded: edit or remove these sources first: Weather, My feed, r/programming.',
    );
  });
});
