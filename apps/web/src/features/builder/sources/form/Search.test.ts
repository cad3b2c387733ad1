import { describe, expect, it } from 'vitest';
import { stepAfterTyping, subscribersLine } from './Search';

describe('search steps (docs/product.md §4: more than 2 characters search, clearing returns)', () => {
  it('moves selected to searching once the text has more than 2 characters', () => {
    expect(stepAfterTyping('selected', 'ab')).toBeNull();
    expect(stepAfterTyping('selected', 'abc')).toBe('searching');
    expect(stepAfterTyping('selected', '  ab  ')).toBeNull();
  });

  it('returns searching to selected when the text is cleared, and stays otherwise', () => {
    expect(stepAfterTyping('searching', '')).toBe('selected');
    expect(stepAfterTyping('searching', 'ab')).toBe('selected');
    expect(stepAfterTyping('searching', 'abcd')).toBeNull();
    expect(stepAfterTyping('edit', '')).toBeNull();
  });
});

describe('audience counts (docs/product.md §9: K above 1,000, M above 1,000,000)', () => {
  it('shortens large counts', () => {
    expect(subscribersLine(1)).toBe('1 subscriber');
    expect(subscribersLine(999)).toBe('999 subscribers');
    expect(subscribersLine(1_500)).toBe('1.5K subscribers');
    expect(subscribersLine(2_500_000)).toBe('2.5M subscribers');
  });
});
