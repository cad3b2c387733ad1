import { defaultSource } from '@digest/contracts';
import { describe, expect, it } from 'vitest';
import { buttonTag, panelProps, renderWithData } from '../form/render-panel';
import { DatePanel } from './DatePanel';

describe("Today's date settings (docs/product.md §4 edit only)", () => {
  it('has only the name, with the kind’s name as placeholder, and Save ready', () => {
    const html = renderWithData(<DatePanel {...panelProps('DATE', 'edit')} />);
    expect(html).toContain('placeholder="Today&#x27;s Date"');
    expect(html.match(/<(input|select)/g)).toHaveLength(1);
    expect(buttonTag(html, 'Save')).not.toContain('disabled');
  });

  it('restores a saved name', () => {
    const html = renderWithData(
      <DatePanel {...panelProps('DATE', 'edit', { initial: { ...defaultSource('DATE'), name: 'Today' } })} />,
    );
    expect(html).toContain('value="Today"');
  });
});
