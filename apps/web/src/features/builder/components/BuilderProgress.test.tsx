import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { BuilderProgress, builderProgress } from './BuilderProgress';

describe('builder progress toward the 3 sources a Digest needs (docs/product.md §2, §5)', () => {
  it('asks for at least 3 sources and counts toward them', () => {
    expect(builderProgress(0)).toMatchObject({
      message: 'Add at least 3 sources to your Digest',
      count: '0 of 3 sources',
      value: 0,
      max: 3,
      ready: false,
    });
    expect(builderProgress(2)).toMatchObject({ count: '2 of 3 sources', value: 2, ready: false });
  });

  it('says the Digest is ready from 3 sources on, with the bar full', () => {
    expect(builderProgress(3)).toMatchObject({
      message: 'Your Digest is ready to complete',
      count: '3 sources',
      value: 3,
      ready: true,
    });
    expect(builderProgress(14).count).toBe('14 sources');
  });

  it('counts toward the limit of 20 near it', () => {
    expect(builderProgress(15).count).toBe('15 of 20 sources');
    expect(builderProgress(20).count).toBe('20 of 20 sources');
  });

  it('renders a progress bar named by its words', () => {
    const html = renderToStaticMarkup(<BuilderProgress count={1} />);
    const labelId = html.match(/<progress[^>]*aria-labelledby="([^"]+)"/)?.[1];
    expect(html).toContain(`<p id="${labelId}"`);
    expect(html).toMatch(/<progress[^>]*value="1"[^>]*max="3"/);
    expect(html).toContain('1 of 3 sources');
  });
});
