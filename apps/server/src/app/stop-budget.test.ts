import { describe, expect, it } from 'vitest';
import { stopBudget } from './stop-budget';

describe('the stop budget', () => {
  it('gives each stage what the stages before it left, so the stop ends within SHUTDOWN_TIMEOUT_MS', () => {
    let now = 1_000;
    const budget = stopBudget(10_000, () => now);
    expect(budget.leftMs()).toBe(10_000);
    budget.start();
    now += 4_000; // the HTTP server drained for 4 s
    expect(budget.leftMs()).toBe(6_000);
    now += 7_000; // the job queue took longer than was left
    expect(budget.leftMs()).toBe(0);
  });

  it('counts from the first start: a second signal does not give the stop a new budget', () => {
    let now = 0;
    const budget = stopBudget(10_000, () => now);
    budget.start();
    now += 8_000;
    budget.start();
    expect(budget.leftMs()).toBe(2_000);
  });
});
