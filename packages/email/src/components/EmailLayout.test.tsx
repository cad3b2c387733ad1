import { describe, expect, it } from 'vitest';
import { renderEmail } from '../render';
import { EmailButton } from './EmailButton';
import { EmailLayout } from './EmailLayout';

const mail = (
  <EmailLayout
    title="Weekly digest"
    preview="Five new stories"
    footer={<p>You get this because you subscribed.</p>}
  >
    <p>Body text</p>
    <EmailButton href="https://digest.example/view/1">View in browser</EmailButton>
  </EmailLayout>
);

describe('EmailLayout', () => {
  it('caps the content width at 600px', async () => {
    const { html } = await renderEmail(mail);
    expect(html).toMatch(/max-width:600px/);
  });

  it('declares light and dark colour schemes and styles dark mode', async () => {
    const { html } = await renderEmail(mail);
    expect(html).toContain('<meta name="color-scheme" content="light dark"/>');
    expect(html).toContain('<meta name="supported-color-schemes" content="light dark"/>');
    expect(html).toMatch(/<style>[\s\S]*@media \(prefers-color-scheme: dark\)[\s\S]*<\/style>/);
    expect(html).toMatch(/<body[^>]*class="dg-body"/);
  });

  it('has a <title> from its prop, a lang and a doctype', async () => {
    const { html } = await renderEmail(mail);
    expect(html).toMatch(/^<!DOCTYPE html/);
    expect(html).toContain('<title>Weekly digest</title>');
    expect(html).toMatch(/<html[^>]* lang="en"/);
  });

  it('renders the footer slot after the content, in html and text', async () => {
    const { html, text } = await renderEmail(mail);
    expect(html.indexOf('You get this because you subscribed.')).toBeGreaterThan(html.indexOf('Body text'));
    expect(text).toContain('You get this because you subscribed.');
  });

  it('renders the button as a link in html and as label plus URL in text', async () => {
    const { html, text } = await renderEmail(mail);
    expect(html).toMatch(/<a href="https:\/\/digest\.example\/view\/1"[^>]*class="dg-button"/);
    expect(text).toContain('View in browser https://digest.example/view/1');
  });

  it('keeps the preview line out of the text part', async () => {
    const { html, text } = await renderEmail(mail);
    expect(html).toContain('Five new stories');
    expect(text).not.toContain('Five new stories');
  });

  it('leaves out the footer section when there is no footer', async () => {
    const { html } = await renderEmail(
      <EmailLayout title="t">
        <p>x</p>
      </EmailLayout>,
    );
    expect(html).not.toContain('dg-footer"');
  });
});
