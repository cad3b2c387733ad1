import { defaultSource } from '@digest/contracts';
import { describe, expect, it } from 'vitest';
import { SourceError } from '#server/sources/source-error';
import { testClock } from '#server-test/test-clock';
import { dateConnector } from './date.connector';

/** 10:30 UTC: already 00:30 on the 22nd at UTC+14, still 23:30 on the 20th at UTC−11. */
const INSTANT = new Date('2026-11-21T10:30:00Z');

function today(timezone: string, locale = 'en-US', now = INSTANT) {
  const connector = dateConnector({ clock: testClock(now) });
  return connector.fetchContent(defaultSource('DATE'), { userId: 'user-1', timezone, locale });
}

describe("today's date", () => {
  it('is the date in the owner’s zone, two different days on either side of the date line', async () => {
    expect(await today('Pacific/Kiritimati')).toEqual({
      date: '2026-11-22',
      formatted: 'Sunday, November 22, 2026',
      weekday: 'Sunday',
      timezone: 'Pacific/Kiritimati',
    });
    expect(await today('Pacific/Pago_Pago')).toEqual({
      date: '2026-11-20',
      formatted: 'Friday, November 20, 2026',
      weekday: 'Friday',
      timezone: 'Pacific/Pago_Pago',
    });
    expect((await today('Europe/London')).date).toBe('2026-11-21');
  });

  it('turns with the clock at the owner’s midnight, not at UTC midnight', async () => {
    expect((await today('America/New_York', 'en-US', new Date('2026-11-22T04:59:59Z'))).date).toBe(
      '2026-11-21',
    );
    expect((await today('America/New_York', 'en-US', new Date('2026-11-22T05:00:00Z'))).date).toBe(
      '2026-11-22',
    );
  });

  it('is written in the owner’s language', async () => {
    expect(await today('Europe/Warsaw', 'pl-PL')).toMatchObject({
      formatted: 'sobota, 21 listopada 2026',
      weekday: 'sobota',
    });
    expect((await today('Europe/Berlin', 'de-DE')).formatted).toBe('Samstag, 21. November 2026');
  });

  it('refuses a zone that does not exist, naming it', async () => {
    const error = await today('Mars/Olympus_Mons').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SourceError);
    expect((error as SourceError).message).toBe('"Mars/Olympus_Mons" is not a time zone this server knows');
  });
});
