import { describe, expect, it } from 'vitest';
import { decodeFeedBody } from './feed-encoding';

const latin1 = (text: string) => new Uint8Array(Buffer.from(text, 'latin1'));
const utf8 = (text: string) => new TextEncoder().encode(text);

describe('decodeFeedBody: which encoding wins', () => {
  it('a byte-order mark outranks the HTTP charset and the XML declaration', () => {
    const bytes = new Uint8Array(
      Buffer.from('\uFEFF<?xml version="1.0" encoding="ISO-8859-1"?><rss>Café ☕</rss>', 'utf16le'),
    );
    expect(decodeFeedBody(bytes, 'application/xml; charset=iso-8859-1')).toBe(
      '<?xml version="1.0" encoding="ISO-8859-1"?><rss>Café ☕</rss>',
    );
  });

  it('the HTTP charset of an XML or JSON media type outranks the XML declaration', () => {
    const body = latin1('<?xml version="1.0" encoding="utf-8"?><rss>caf\xe9</rss>');
    for (const type of ['text/xml', 'application/xml', 'application/rss+xml', 'application/atom+xml']) {
      expect(decodeFeedBody(body, `${type}; charset=ISO-8859-1`), type).toContain('café');
    }
  });

  it('the XML declaration outranks the charset of a media type that is not XML (text/html, text/plain)', () => {
    const body = latin1('<?xml version="1.0" encoding="ISO-8859-1"?><rss>caf\xe9</rss>');
    expect(decodeFeedBody(body, 'text/html; charset=utf-8')).toContain('café');
    expect(decodeFeedBody(body, 'text/plain; charset=utf-8')).toContain('café');
  });

  it("a server's default ISO-8859-1 yields to a UTF-8 declaration only when the bytes are valid UTF-8", () => {
    const declared = '<?xml version="1.0" encoding="UTF-8"?>';
    expect(decodeFeedBody(utf8(`${declared}<rss>café</rss>`), 'text/xml; charset=ISO-8859-1')).toContain(
      'café',
    );
    expect(decodeFeedBody(latin1(`${declared}<rss>caf\xe9</rss>`), 'text/xml; charset=ISO-8859-1')).toContain(
      'café',
    );
  });

  it('a label Node cannot decode falls through to the next source, then to UTF-8', () => {
    const body = utf8('<?xml version="1.0" encoding="x-no-such-charset"?><rss>café</rss>');
    expect(decodeFeedBody(body, 'application/xml; charset=also-unknown')).toContain('café');
    expect(decodeFeedBody(latin1('<rss>caf\xe9</rss>'), 'text/xml; charset=nonsense')).toContain('caf\uFFFD');
  });

  it('UTF-32 with a truncated last character ends in U+FFFD rather than throwing', () => {
    const bytes = new Uint8Array([0xff, 0xfe, 0, 0, 0x3c, 0, 0, 0, 0x61, 0]);
    expect(decodeFeedBody(bytes)).toBe('<\uFFFD');
  });

  it('maps windows-1252 punctuation as browsers do, never to C1 control characters', () => {
    const body = latin1('<?xml version="1.0" encoding="us-ascii"?><rss>\x93q\x94 \x80 \x85</rss>');
    expect(decodeFeedBody(body)).toContain('“q” € …');
  });
});
