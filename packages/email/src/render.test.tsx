import { describe, expect, it } from 'vitest';
import { renderEmail } from './render';

describe('renderEmail', () => {
  it('renders html and a text part from the same element', async () => {
    const { html, text } = await renderEmail(
      <html lang="en">
        <body>
          <h2>Top stories</h2>
          <p>
            Read <a href="https://example.com/a">the article</a>.
          </p>
        </body>
      </html>,
    );
    expect(html).toMatch(/^<!DOCTYPE html/);
    expect(html).toContain('<h2>Top stories</h2>');
    expect(text).toBe('Top stories\n\nRead the article https://example.com/a.');
  });

  it('keeps the case of headings in the text part', async () => {
    const { text } = await renderEmail(<h1>Good morning, Ann</h1>);
    expect(text).toBe('Good morning, Ann');
  });

  it('leaves images and data-skip-in-text elements out of the text part', async () => {
    const { text } = await renderEmail(
      <div>
        <img src="https://example.com/x.png" alt="chart" />
        <p data-skip-in-text="true">hidden</p>
        <p>shown</p>
      </div>,
    );
    expect(text).toBe('shown');
  });
});
