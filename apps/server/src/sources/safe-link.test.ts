import { describe, expect, it } from 'vitest';
import { httpUrlOrEmpty } from './safe-link';

describe('links from providers', () => {
  it.each([
    ['https://example.com/a?b=1#c', 'https://example.com/a?b=1#c'],
    ['http://example.com', 'http://example.com/'],
    ['  https://example.com/padded  ', 'https://example.com/padded'],
    ['HTTPS://EXAMPLE.COM/Case', 'https://example.com/Case'],
  ])('lets the http(s) URL %j through (normalised)', (value, expected) => {
    expect(httpUrlOrEmpty(value)).toBe(expected);
  });

  it.each([
    'javascript:alert(document.cookie)',
    ' JavaScript:alert(1)',
    'java\tscript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'vbscript:msgbox(1)',
    'file:///etc/passwd',
    'mailto:ada@example.com',
    'not a url',
    '/relative/without/base',
    '',
    null,
    undefined,
  ])('turns %j into an empty string', (value) => {
    expect(httpUrlOrEmpty(value)).toBe('');
  });

  it('resolves a relative link against the base, but never lets another scheme through it', () => {
    expect(httpUrlOrEmpty('/r/typescript/comments/1', 'https://www.reddit.com')).toBe(
      'https://www.reddit.com/r/typescript/comments/1',
    );
    expect(httpUrlOrEmpty('javascript:alert(1)', 'https://www.reddit.com')).toBe('');
  });
});
