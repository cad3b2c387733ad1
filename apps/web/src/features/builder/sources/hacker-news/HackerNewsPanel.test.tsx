import { defaultSource } from '@digest/contracts';
import { describe, expect, it } from 'vitest';
import { buttonTag, panelProps, renderWithData } from '../form/render-panel';
import { HackerNewsPanel } from './HackerNewsPanel';

const render = (initial: ReturnType<typeof defaultSource<'HACKER_NEWS'>> | null = null) =>
  renderWithData(<HackerNewsPanel {...panelProps('HACKER_NEWS', 'edit', { initial })} />);

describe('Hacker News settings (docs/product.md §4 edit only, §9 defaults)', () => {
  it('starts with 6 top stories in 2 columns, the name as a placeholder, and Save ready', () => {
    const html = render();
    expect(html).toContain('placeholder="Hacker News"');
    expect(html).toContain('<option value="top" selected="">Top stories</option>');
    expect(html).toMatch(/name="numberOfPosts"[^>]*value="6"/);
    expect(html).toContain('<option value="2" selected="">2 Columns</option>');
    expect(html).toContain('Ask HN');
    expect(html).toContain('Show HN');
    expect(buttonTag(html, 'Save')).not.toContain('disabled');
  });

  it('restores a saved block', () => {
    const html = render({
      ...defaultSource('HACKER_NEWS'),
      name: 'Tech',
      story: 'latest',
      askHN: true,
      layout: 1,
    });
    expect(html).toContain('value="Tech"');
    expect(html).toContain('<option value="latest" selected="">Latest stories</option>');
    expect(html).toMatch(/name="askHN"[^>]*checked=""/);
    expect(html).not.toMatch(/name="showHN"[^>]*checked=""/);
    expect(html).toContain('<option value="1" selected="">1 Column</option>');
  });

  it('refuses 11 posts with the schema message and disables Save', () => {
    const html = render({ ...defaultSource('HACKER_NEWS'), numberOfPosts: 11 });
    expect(html).toContain('Number of posts must be at most 10');
    expect(buttonTag(html, 'Save')).toContain('disabled');
  });
});
