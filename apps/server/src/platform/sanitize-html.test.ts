import { DomUtils, parseDocument } from 'htmlparser2';
import { describe, expect, it } from 'vitest';
import { firstParagraph, htmlToText, sanitizeHtml } from './sanitize-html';

/** Attacks in the style of the OWASP XSS filter evasion cheat sheet, plus markup that only hides or overlays. */
const VECTORS: Record<string, string> = {
  'script element': '<script>alert(1)</script>',
  'script with odd casing and attributes': '<ScRiPt SRC=//evil.example/x.js></ScRiPt>',
  'script split by a null attribute': '<scr<script>ipt>alert(1)</scr</script>ipt>',
  'img onerror': '<img src=x onerror=alert(1)>',
  'img onerror without quotes or spaces': '<img/src="x"/onerror=alert(1)>',
  'event handler on an allowed tag': '<p onclick="alert(1)" onmouseover=alert(2)>hi</p>',
  'javascript: link': '<a href="javascript:alert(1)">x</a>',
  'javascript: with upper case and spaces': '<a href="  JaVaScRiPt:alert(1)">x</a>',
  'javascript: with an encoded tab': '<a href="jav&#x09;ascript:alert(1)">x</a>',
  'javascript: with an encoded newline': '<a href="jav&#x0A;ascript:alert(1)">x</a>',
  'javascript: as decimal entities':
    '<a href="&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;alert(1)">x</a>',
  'javascript: as padded hex entities': '<a href="&#x0000006A;avascript:alert(1)">x</a>',
  'javascript: with a leading control character': '<a href="&#14;javascript:alert(1)">x</a>',
  'vbscript: link': '<a href="vbscript:msgbox(1)">x</a>',
  'data: link': '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">x</a>',
  'data: image': '<img src="data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+">',
  'javascript: image source': '<img src="javascript:alert(1)">',
  'svg onload': '<svg onload=alert(1)><circle r="1"/></svg>',
  'svg with script inside': '<svg><script>alert(1)</script></svg>',
  'math with a link-like href':
    '<math href="javascript:alert(1)"><mi xlink:href="javascript:alert(1)">x</mi></math>',
  'math namespace confusion':
    '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)></style></mglyph></table></mtext></math>',
  iframe: '<iframe src="https://evil.example/"></iframe>',
  'iframe srcdoc': '<iframe srcdoc="&lt;script&gt;alert(1)&lt;/script&gt;"></iframe>',
  'form with input and button':
    '<form action="https://evil.example/"><input name="password"><button>Log in</button></form>',
  'style element': '<style>body{display:none}</style>',
  'style attribute that overlays the page':
    '<p style="position:fixed;top:0;left:0;width:100%;height:100%">Log in again</p>',
  'style with expression()': '<span style="width: expression(alert(1))">x</span>',
  'meta refresh': '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">',
  'base href': '<base href="https://evil.example/">',
  object: '<object data="https://evil.example/x.swf" type="application/x-shockwave-flash"></object>',
  embed: '<embed src="https://evil.example/x.swf">',
  'link stylesheet': '<link rel="stylesheet" href="https://evil.example/x.css">',
  'srcset sneaking in another source': '<img src="https://ok.example/a.png" srcset="javascript:alert(1) 1x">',
  'class and id used for page styles': '<p class="modal-backdrop" id="login">x</p>',
  'target replaced to keep window.opener away':
    '<a href="https://ok.example/" target="_self" rel="opener">x</a>',
  'protocol-relative link without a base': '<a href="//evil.example/">x</a>',
  'formaction on a button': '<button formaction="javascript:alert(1)">x</button>',
  'template content': '<template><img src=x onerror=alert(1)></template>',
  'noscript parser differential': '<noscript><p title="</noscript><img src=x onerror=alert(1)>"></noscript>',
};

const ALLOWED_TAGS = new Set(
  'p br a img b strong i em u s ul ol li blockquote pre code h1 h2 h3 h4 h5 h6 figure figcaption table caption thead tbody tfoot tr th td hr span div'.split(
    ' ',
  ),
);
const ALLOWED_ATTRIBUTES: Record<string, string[]> = {
  a: ['href', 'title', 'rel', 'target'],
  img: ['src', 'alt', 'width', 'height'],
  td: ['colspan', 'rowspan'],
  th: ['colspan', 'rowspan'],
};

/** Every element and attribute of `html` that the allow-list does not permit, and every unsafe URL. */
function violations(html: string): string[] {
  const found: string[] = [];
  for (const element of DomUtils.findAll(() => true, parseDocument(html).children)) {
    if (!ALLOWED_TAGS.has(element.name)) found.push(`<${element.name}>`);
    for (const [name, value] of Object.entries(element.attribs)) {
      if (!(ALLOWED_ATTRIBUTES[element.name] ?? []).includes(name)) found.push(`${element.name}[${name}]`);
      if ((name === 'href' || name === 'src') && !/^(https?:\/\/|mailto:)/.test(value))
        found.push(`${element.name}[${name}=${value}]`);
    }
  }
  return found;
}

describe('sanitizeHtml', () => {
  for (const [name, vector] of Object.entries(VECTORS)) {
    it(`removes ${name}`, () => {
      const clean = sanitizeHtml(vector);
      expect(violations(clean)).toEqual([]);
      // Escaped leftovers such as `ipt&gt;alert(1)` are text, not markup; markup must carry none of these.
      expect(clean).not.toMatch(/javascript:|vbscript:|data:|\son\w+=|style=|srcdoc|<script|<iframe/i);
      // With a base URL nothing dangerous comes back through resolution either.
      expect(violations(sanitizeHtml(vector, { baseUrl: 'https://blog.example/posts/1' }))).toEqual([]);
    });
  }

  it('keeps ordinary article markup', () => {
    const html =
      '<h2>Title</h2><p>Some <strong>bold</strong>, <em>italic</em>, <u>u</u>, <s>s</s> and <code>code</code>.</p>' +
      '<blockquote>Quote</blockquote><pre>pre</pre><ul><li>one</li></ul><ol><li>two</li></ol><hr>' +
      '<figure><img src="https://cdn.example/a.png" alt="A" width="600" height="400"><figcaption>Caption</figcaption></figure>' +
      '<table><thead><tr><th colspan="2">H</th></tr></thead><tbody><tr><td>1</td><td rowspan="1">2</td></tr></tbody></table>';
    expect(sanitizeHtml(html)).toBe(
      html.replace('<hr>', '<hr />').replace('height="400">', 'height="400" />'),
    );
  });

  it('keeps http, https and mailto links and makes them open safely in a new tab', () => {
    expect(
      sanitizeHtml(
        '<a href="https://ok.example/a?b=1&amp;c=2" title="T">x</a> <a href="mailto:me@ok.example">m</a>',
      ),
    ).toBe(
      '<a href="https://ok.example/a?b=1&amp;c=2" title="T" rel="noopener noreferrer nofollow" target="_blank">x</a> ' +
        '<a href="mailto:me@ok.example" rel="noopener noreferrer nofollow" target="_blank">m</a>',
    );
  });

  it('resolves relative links and images against the base URL', () => {
    expect(
      sanitizeHtml('<a href="../about">a</a><img src="img/x.png" alt="x"><a href="//cdn.example/y">y</a>', {
        baseUrl: 'https://blog.example/posts/1/',
      }),
    ).toBe(
      '<a href="https://blog.example/posts/about" rel="noopener noreferrer nofollow" target="_blank">a</a>' +
        '<img src="https://blog.example/posts/1/img/x.png" alt="x" />' +
        '<a href="https://cdn.example/y" rel="noopener noreferrer nofollow" target="_blank">y</a>',
    );
  });

  it('drops relative URLs when there is no base URL, and images left without a source', () => {
    expect(sanitizeHtml('<a href="/about">a</a><img src="x.png" alt="x">')).toBe(
      '<a rel="noopener noreferrer nofollow" target="_blank">a</a>',
    );
  });

  it('drops non-numeric image sizes', () => {
    expect(sanitizeHtml('<img src="https://cdn.example/a.png" width="100%" height="10">')).toBe(
      '<img src="https://cdn.example/a.png" height="10" />',
    );
  });

  it('keeps the text of removed wrappers but not of scripts, styles or iframes', () => {
    expect(
      sanitizeHtml(
        '<font color="red">kept</font><script>gone()</script><style>p{}</style><iframe>gone</iframe>',
      ),
    ).toBe('kept');
  });

  it('turns sectioning wrappers into plain divs so paragraphs stay apart', () => {
    expect(sanitizeHtml('<article class="x"><header>One</header><section>Two</section></article>')).toBe(
      '<div><div>One</div><div>Two</div></div>',
    );
  });
});

describe('htmlToText', () => {
  it('decodes entities, separates blocks and collapses whitespace', () => {
    expect(htmlToText('<p>Fish &amp; chips&nbsp;&mdash; &lt;tasty&gt;</p>\n\n<p>Second<br>line</p>')).toBe(
      'Fish & chips — <tasty> Second line',
    );
  });

  it('leaves out script and style contents', () => {
    expect(htmlToText('<style>p{color:red}</style><p>Text</p><script>alert(1)</script>')).toBe('Text');
  });

  it('reads plain text as it is', () => {
    expect(htmlToText('  just   text  ')).toBe('just text');
  });
});

describe('firstParagraph', () => {
  it('takes the first block that has text, sanitised', () => {
    expect(
      firstParagraph(
        '<p><img src="https://cdn.example/a.png"></p><p> </p><p onclick="x()">First <b>real</b></p><p>Second</p>',
      ),
    ).toBe('<p>First <b>real</b></p>');
  });

  it('wraps loose inline text up to a blank line in a paragraph', () => {
    expect(firstParagraph('Loose <a href="https://ok.example/">text</a><br><br>Next')).toBe(
      '<p>Loose <a href="https://ok.example/" rel="noopener noreferrer nofollow" target="_blank">text</a></p>',
    );
  });

  it('ends loose inline text at the next block', () => {
    expect(firstParagraph('Intro<br><p>Para</p>')).toBe('<p>Intro</p>');
  });

  it('looks inside wrappers', () => {
    expect(firstParagraph('<div><div><h2>Heading</h2></div><p>x</p></div>')).toBe('<h2>Heading</h2>');
  });

  it('resolves relative links against the base URL', () => {
    expect(firstParagraph('<p><a href="/a">a</a></p>', { baseUrl: 'https://blog.example/' })).toBe(
      '<p><a href="https://blog.example/a" rel="noopener noreferrer nofollow" target="_blank">a</a></p>',
    );
  });

  it('is empty when there is no text', () => {
    expect(firstParagraph('<p></p><script>x</script>')).toBe('');
  });
});

describe('HTML nested too deeply to parse safely', () => {
  const deep = (depth: number) => `${'<div>'.repeat(depth)}deep &amp; <b>bold</b>${'</div>'.repeat(depth)}`;

  it('is kept as plain text by sanitizeHtml, firstParagraph and htmlToText, quickly and without a stack overflow', () => {
    const html = deep(100_000);
    expect(sanitizeHtml(html)).toBe('<p>deep &amp; bold</p>');
    expect(firstParagraph(html)).toBe('<p>deep &amp; bold</p>');
    expect(htmlToText(html)).toBe('deep & bold');
  });

  it('is parsed as usual up to 256 levels, and void elements such as <br> open no level', () => {
    expect(sanitizeHtml(deep(200))).toContain('<b>bold</b>');
    expect(sanitizeHtml(`<p>${'line<br>'.repeat(1000)}</p>`)).toContain('<br />');
  });
});
