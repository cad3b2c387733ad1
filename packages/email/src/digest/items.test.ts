import { describe, expect, it } from 'vitest';
import { itemCount, keepFirstItems, keepHeadings } from './items';
import { blockOf, calendarContent, rssContent, weatherContent } from './test-blocks';

describe('itemCount', () => {
  it('counts list items, calendar events across days, weather as one and an error block as none', () => {
    expect(itemCount(blockOf('RSS', rssContent(7)))).toBe(7);
    // Four entries in one day: an out-of-office line, a birthday and two events; each is an item.
    expect(itemCount(blockOf('GOOGLE_CALENDAR', calendarContent()))).toBe(4);
    expect(itemCount(blockOf('WEATHER', weatherContent(5)))).toBe(1);
    expect(itemCount({ ...blockOf('RSS', rssContent(3)), error: 'down' })).toBe(0);
  });
});

describe('keepFirstItems', () => {
  it('keeps the first items in block order and marks the blocks that lost some', () => {
    const blocks = [
      blockOf('WEATHER', weatherContent(1)),
      blockOf('RSS', rssContent(5)),
      blockOf('RSS', rssContent(2)),
    ];
    const kept = keepFirstItems(blocks, 3);
    expect(kept.map(itemCount)).toEqual([1, 2, 0]);
    expect(kept.map((block) => block.cut === true)).toEqual([false, true, true]);
  });

  it('cuts calendar events across days', () => {
    const [block] = keepFirstItems([blockOf('GOOGLE_CALENDAR', calendarContent())], 1);
    expect(block && itemCount(block)).toBe(1);
  });
});

describe('keepHeadings', () => {
  it('keeps the first blocks without content or error', () => {
    const blocks = [
      blockOf('RSS', rssContent(5)),
      { ...blockOf('RSS', undefined), error: 'x' },
      blockOf('RSS', rssContent(1)),
    ];
    const kept = keepHeadings(blocks, 2);
    expect(kept).toHaveLength(2);
    expect(kept.every((block) => block.cut && !block.content && !block.error)).toBe(true);
  });
});
