import { describe, expect, it } from 'vitest';
import { slotKey } from './next-run';

describe('slot keys', () => {
  it('join the digest id and the slot instant, so one slot of one digest has one key', () => {
    expect(slotKey('d-1', new Date('2026-03-08T07:00:00Z'))).toBe('d-1:2026-03-08T07:00:00.000Z');
  });
});
