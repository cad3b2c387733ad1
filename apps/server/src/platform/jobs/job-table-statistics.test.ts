import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jobTableStatistics } from './job-table-statistics';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

/** An ANALYZE that counts its runs and finishes when the test says so. */
function fakeAnalyze() {
  const runs: { finish: () => void; fail: (error: Error) => void }[] = [];
  const analyze = () =>
    new Promise<void>((resolve, reject) => {
      runs.push({ finish: resolve, fail: reject });
    });
  return { runs, analyze };
}

function statisticsWith(analyze: () => Promise<unknown>, onError = vi.fn()) {
  return jobTableStatistics({ analyze, onError, jobsBetween: 1_000, minIntervalMs: 5_000 });
}

describe('the job table’s statistics', () => {
  it('are not refreshed while fewer jobs than the threshold were sent', async () => {
    const { runs, analyze } = fakeAnalyze();
    const statistics = statisticsWith(analyze);
    statistics.added(600);
    statistics.added(399);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(runs).toHaveLength(0);
    await statistics.stop();
  });

  it('are refreshed once the threshold is reached, then at most once per interval however many jobs follow', async () => {
    const { runs, analyze } = fakeAnalyze();
    const statistics = statisticsWith(analyze);
    statistics.added(1_000);
    await vi.advanceTimersByTimeAsync(0);
    expect(runs).toHaveLength(1);
    runs[0]?.finish();
    await vi.advanceTimersByTimeAsync(0);

    for (let i = 0; i < 10; i += 1) statistics.added(1_000);
    await vi.advanceTimersByTimeAsync(4_900);
    expect(runs).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(100);
    expect(runs).toHaveLength(2);
    runs[1]?.finish();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(runs).toHaveLength(2);
    await statistics.stop();
  });

  it('count the jobs sent during a refresh towards the next one', async () => {
    const { runs, analyze } = fakeAnalyze();
    const statistics = statisticsWith(analyze);
    statistics.added(1_000);
    await vi.advanceTimersByTimeAsync(0);
    statistics.added(1_500);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(runs).toHaveLength(1);
    runs[0]?.finish();
    await vi.advanceTimersByTimeAsync(0);
    expect(runs).toHaveLength(2);
    runs[1]?.finish();
    await statistics.stop();
  });

  it('report a failed refresh and go on refreshing', async () => {
    const { runs, analyze } = fakeAnalyze();
    const onError = vi.fn();
    const statistics = statisticsWith(analyze, onError);
    statistics.added(1_000);
    await vi.advanceTimersByTimeAsync(0);
    runs[0]?.fail(new Error('permission denied for table job_common'));
    await vi.advanceTimersByTimeAsync(0);
    expect(onError).toHaveBeenCalledWith(
      expect.objectContaining({ message: expect.stringMatching(/denied/) }),
    );
    statistics.added(1_000);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(runs).toHaveLength(2);
    runs[1]?.finish();
    await statistics.stop();
  });

  it('stop cancels a waiting refresh and waits for a running one', async () => {
    const { runs, analyze } = fakeAnalyze();
    const statistics = statisticsWith(analyze);
    statistics.added(1_000);
    await vi.advanceTimersByTimeAsync(0);
    statistics.added(1_000);
    let stopped = false;
    const stopping = statistics.stop().then(() => {
      stopped = true;
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(stopped).toBe(false);
    runs[0]?.finish();
    await stopping;
    await vi.advanceTimersByTimeAsync(60_000);
    expect(runs).toHaveLength(1);
    statistics.added(5_000);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(runs).toHaveLength(1);
  });
});
