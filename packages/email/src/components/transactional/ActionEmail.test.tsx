import { describe, expect, it } from 'vitest';
import { renderEmail } from '../../render';
import { ActionEmail, type ActionEmailProps } from './ActionEmail';

const props: ActionEmailProps = {
  title: 'Reset your Digest password',
  preview: 'A link to choose a new password',
  heading: 'Choose a new password',
  paragraphs: [
    'Someone asked to reset the password of the Digest account ann@example.com.',
    'If that was you, use the button below.',
  ],
  action: { label: 'Reset password', href: 'https://digest.example/reset-password?token=abc123&uid=7' },
  footnote: 'This link expires in one hour. If you did not ask for it, ignore this mail.',
  legal: { termsUrl: 'https://digest.example/terms', privacyUrl: 'https://legal.example/privacy?v=2' },
};

describe('ActionEmail', () => {
  it('html has a <title> element with the title prop', async () => {
    const { html } = await renderEmail(<ActionEmail {...props} />);
    expect(html).toMatch(/<title>Reset your Digest password<\/title>/);
    expect(html.indexOf('<title>')).toBeLessThan(html.indexOf('</head>'));
  });

  it('html links the action URL (attribute-escaped) with its label', async () => {
    const { html } = await renderEmail(<ActionEmail {...props} />);
    expect(html).toContain('href="https://digest.example/reset-password?token=abc123&amp;uid=7"');
    expect(html).toContain('>Reset password</span>');
  });

  it('html contains heading, paragraphs, preview and footnote', async () => {
    const { html } = await renderEmail(<ActionEmail {...props} />);
    expect(html).toMatch(/<h1[^>]*>Choose a new password<\/h1>/);
    expect(html).toContain('Someone asked to reset the password of the Digest account ann@example.com.');
    expect(html).toContain('If that was you, use the button below.');
    expect(html).toContain('A link to choose a new password');
    expect(html).toContain('This link expires in one hour.');
  });

  it('text part contains the heading, every paragraph, the label with the URL and the footnote', async () => {
    const { text } = await renderEmail(<ActionEmail {...props} />);
    expect(text).toContain('Choose a new password');
    expect(text).toContain('Someone asked to reset the password of the Digest account ann@example.com.');
    expect(text).toContain('If that was you, use the button below.');
    expect(text).toContain('Reset password https://digest.example/reset-password?token=abc123&uid=7');
    expect(text).toContain('This link expires in one hour. If you did not ask for it, ignore this mail.');
  });

  it('text part has no HTML, no preview line and the URL only once', async () => {
    const { text } = await renderEmail(<ActionEmail {...props} />);
    expect(text).not.toMatch(/<[a-z!/]/i);
    expect(text).not.toContain('A link to choose a new password');
    expect(text.split('https://digest.example/reset-password').length - 1).toBe(1);
    expect(text.startsWith('Choose a new password')).toBe(true);
  });

  it('user-provided strings are escaped in the html, never markup', async () => {
    const evil = '<script>alert(1)</script>';
    const { html, text } = await renderEmail(
      <ActionEmail
        {...props}
        title={`</title>${evil}`}
        heading={evil}
        paragraphs={[`<img src=x onerror=alert(2)> & "quotes"`]}
        footnote={evil}
        action={{ label: `<b>${evil}</b>`, href: 'https://digest.example/a?x="><script>alert(3)</script>' }}
      />,
    );
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('&lt;img src=x onerror=alert(2)&gt; &amp; &quot;quotes&quot;');
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/<img/i);
    expect(html).not.toMatch(/<b>/i);
    expect(html.match(/<\/title>/g)).toHaveLength(1);
    // The text part is plain text: the heading appears verbatim, as words, not as markup to run.
    expect(text).toContain(evil);
  });

  it('html has no <script> element', async () => {
    const { html } = await renderEmail(<ActionEmail {...props} />);
    expect(html).not.toMatch(/<script/i);
  });

  it.each([
    'javascript:alert(1)',
    'JaVaScRiPt:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    '/relative/path',
    'not a url',
  ])('refuses an action href that is not an absolute http(s) URL: %s', async (href) => {
    await expect(renderEmail(<ActionEmail {...props} action={{ label: 'Go', href }} />)).rejects.toThrow(
      /absolute http\(s\) URL/,
    );
  });

  it('leaves out the footnote rule when there is no footnote', async () => {
    const { footnote: _omit, ...withoutFootnote } = props;
    const { html, text } = await renderEmail(<ActionEmail {...withoutFootnote} />);
    expect(html).not.toContain('<hr');
    expect(text).not.toContain('This link expires');
  });

  it('ends its footer with links to the Terms of Service and the Privacy Policy, in html and text', async () => {
    const { html, text } = await renderEmail(<ActionEmail {...props} footer="Why you get this." />);
    expect(html).toMatch(/<a href="https:\/\/digest\.example\/terms"[^>]*>Terms of Service<\/a>/);
    expect(html).toMatch(/<a href="https:\/\/legal\.example\/privacy\?v=2"[^>]*>Privacy Policy<\/a>/);
    expect(html.indexOf('Terms of Service')).toBeGreaterThan(html.indexOf('Why you get this.'));
    expect(text).toContain('https://digest.example/terms');
    expect(text).toContain('https://legal.example/privacy?v=2');
  });
});
