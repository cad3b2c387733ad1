import { describe, expect, it } from 'vitest';
import { markdownToSafeHtml } from './markdown';

describe('Markdown is rendered without raw HTML and through the sanitiser', () => {
  it('renders headings, lists, emphasis and links', () => {
    const html = markdownToSafeHtml('# Title\n\n- one **bold**\n- [a link](https://example.com/)\n');
    expect(html).toContain('<h1>Title</h1>');
    expect(html).toContain('<li>one <strong>bold</strong></li>');
    expect(html).toMatch(/<a href="https:\/\/example\.com\/"[^>]*>a link<\/a>/);
  });

  it('shows raw HTML as text: no tag of it reaches the page', () => {
    const html = markdownToSafeHtml('Hi <img src=x onerror=alert(1)>\n\n<script>alert(1)</script>\n');
    expect(html).not.toMatch(/<img|<script/);
    expect(html).toContain('&lt;script&gt;');
  });

  it('drops links to javascript: addresses', () => {
    expect(markdownToSafeHtml('[click](javascript:alert(1))')).not.toContain('javascript:');
  });
});
