// @vitest-environment happy-dom
import type { SourceType } from '@digest/contracts';
import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { testDigest, testDigestSummary } from '#web/features/digests';
import { createQueryClient } from '#web/lib/query-client';
import { ActiveSwitch, catchUpContents, pausedFor, type SwitchDigest } from './ActiveSwitch';

vi.mock('#web/lib/notify', () => ({ notifySuccess: vi.fn(), notifyError: vi.fn() }));

const NOW = new Date('2026-11-26T09:00:00.000Z');
const DAY_MS = 86_400_000;
const daysAgo = (days: number) => new Date(NOW.getTime() - days * DAY_MS).toISOString();

/** The PATCH bodies the switch sent. */
let patches: unknown[];
beforeEach(() => {
  patches = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (_url: string, init?: RequestInit) => {
      const body = JSON.parse(String(init?.body ?? '{}'));
      patches.push(body);
      const digest = testDigest(0, { active: body.active, pausedAt: body.active ? null : NOW.toISOString() });
      return new Response(JSON.stringify({ digest }), { headers: { 'content-type': 'application/json' } });
    }),
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function paused(days: number, sourceTypes: SourceType[] = ['RSS', 'DATE', 'HACKER_NEWS', 'NEWSLETTERS']) {
  return testDigestSummary({ active: false, nextRunAt: null, pausedAt: daysAgo(days), sourceTypes });
}

function renderSwitch(digest: SwitchDigest) {
  return render(
    <QueryClientProvider client={createQueryClient()}>
      <ActiveSwitch digest={digest} now={() => NOW} />
    </QueryClientProvider>,
  );
}

const turnOn = () => fireEvent.click(screen.getByRole('switch', { name: 'Active' }));

describe('resuming a digest paused for longer than its period offers one catch-up issue', () => {
  it('asks first, saying what the catch-up holds; "Send one catch-up issue" resumes with catchUp', async () => {
    renderSwitch(paused(21));
    turnOn();
    const dialog = await screen.findByRole('dialog', { name: 'Resume “Morning”?' });
    expect(dialog.textContent).toContain('It has been paused for 3 weeks.');
    expect(dialog.textContent).toContain(
      'One catch-up issue, marked “While you were away”, can bring you the feed items, newsletters and Hacker News best of that time.',
    );
    expect(patches).toEqual([]);
    fireEvent.click(screen.getByRole('button', { name: 'Send one catch-up issue' }));
    await waitFor(() => expect(patches).toEqual([{ active: true, catchUp: true }]));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('"Resume without" resumes on the schedule alone', async () => {
    renderSwitch(paused(21));
    turnOn();
    fireEvent.click(await screen.findByRole('button', { name: 'Resume without' }));
    await waitFor(() => expect(patches).toEqual([{ active: true }]));
  });

  it('closing the question (Escape) leaves the digest paused and sends nothing', async () => {
    renderSwitch(paused(21));
    turnOn();
    const dialog = await screen.findByRole('dialog');
    fireEvent.keyDown(dialog, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(patches).toEqual([]);
    expect(screen.getByText('Paused')).toBeTruthy();
  });

  const atOnce: [string, SwitchDigest][] = [
    ['a daily digest paused for 20 hours', paused(20 / 24)],
    ['a weekly digest paused for 6 days', { ...paused(6), scheduleType: 'weekly' }],
    ['a digest whose sources cannot catch up', paused(40, ['DATE', 'WEATHER', 'REDDIT'])],
    ['a digest paused before pauses were recorded', { ...paused(40), pausedAt: null }],
  ];
  it.each(atOnce)('flips at once for %s', async (_label, digest) => {
    renderSwitch(digest);
    turnOn();
    await waitFor(() => expect(patches).toEqual([{ active: true }]));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('pausing still flips at once', async () => {
    renderSwitch(testDigestSummary({ sourceTypes: ['RSS'] }));
    turnOn();
    await waitFor(() => expect(patches).toEqual([{ active: false }]));
  });

  it('words how long and what, from the digest’s own sources', () => {
    expect(pausedFor(daysAgo(9), NOW)).toBe('9 days');
    expect(pausedFor(daysAgo(1.5), NOW)).toBe('1 day');
    expect(pausedFor(daysAgo(21), NOW)).toBe('3 weeks');
    expect(pausedFor(daysAgo(95), NOW)).toBe('3 months');
    expect(catchUpContents(['HACKER_NEWS', 'DATE'])).toBe('the Hacker News best');
    expect(catchUpContents(['NEWSLETTERS', 'RSS'])).toBe('the feed items and newsletters');
  });
});
