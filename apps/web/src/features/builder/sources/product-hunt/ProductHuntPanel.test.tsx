import { defaultSource } from '@digest/contracts';
import { describe, expect, it } from 'vitest';
import { buttonTag, panelProps, renderWithData } from '../form/render-panel';
import { ProductHuntPanel } from './ProductHuntPanel';

const render = (initial: ReturnType<typeof defaultSource<'PRODUCT_HUNT'>> | null = null) =>
  renderWithData(<ProductHuntPanel {...panelProps('PRODUCT_HUNT', 'edit', { initial })} />);

describe('Product Hunt settings (docs/product.md §4 edit only, §9 defaults)', () => {
  it('starts with 6 posts in 2 columns, images shown, paragraphs, and Save ready', () => {
    const html = render();
    expect(html).toContain('placeholder="Product Hunt"');
    expect(html).toMatch(/name="numberOfPosts"[^>]*value="6"/);
    expect(html).toContain('<option value="2" selected="">2 Columns</option>');
    expect(html).toContain('<option value="show" selected="">Show</option>');
    expect(html).toContain('<option value="paragraph" selected="">Paragraph</option>');
    expect(buttonTag(html, 'Save')).not.toContain('disabled');
  });

  it('restores a saved block', () => {
    const html = render({
      ...defaultSource('PRODUCT_HUNT'),
      numberOfPosts: 2,
      images: 'hide',
      postBody: 'hide',
    });
    expect(html).toMatch(/name="numberOfPosts"[^>]*value="2"/);
    expect(html).toContain('<option value="hide" selected="">Hide</option>');
  });

  it('refuses 11 posts with the schema message and disables Save', () => {
    const html = render({ ...defaultSource('PRODUCT_HUNT'), numberOfPosts: 11 });
    expect(html).toContain('Number of posts must be at most 10');
    expect(buttonTag(html, 'Save')).toContain('disabled');
  });
});
