import { describe, expect, it } from 'vitest';
import { capImages, firstParagraphOf, safeHref, withoutImages } from './html';

describe('capImages', () => {
  it('caps a wider width and drops the height so the picture keeps its shape', () => {
    expect(capImages('<img src="https://a.example/x.png" alt="x" width="1200" height="600">', 600)).toBe(
      '<img src="https://a.example/x.png" alt="x" width="600" style="max-width:100%;height:auto;border:0">',
    );
  });

  it('keeps a narrower width with its height', () => {
    expect(capImages('<img src="https://a.example/x.png" width="100" height="50" />', 600)).toBe(
      '<img src="https://a.example/x.png" alt="" width="100" height="50" style="max-width:100%;height:auto;border:0">',
    );
  });

  it('gives a picture without width max-width:100% only', () => {
    expect(capImages('<p>a<img src="https://a.example/x.png">b</p>', 600)).toBe(
      '<p>a<img src="https://a.example/x.png" alt="" style="max-width:100%;height:auto;border:0">b</p>',
    );
  });

  it('reads a quoted > inside an attribute as part of it', () => {
    const out = capImages('<img alt="a > b" src="https://a.example/x.png" width="900">', 536);
    expect(out).toBe(
      '<img src="https://a.example/x.png" alt="a > b" width="536" style="max-width:100%;height:auto;border:0">',
    );
  });

  it('drops a picture without a source', () => {
    expect(capImages('<p><img alt="x"></p>', 600)).toBe('<p></p>');
  });
});

describe('withoutImages', () => {
  it('removes pictures and the links and paragraphs they leave empty', () => {
    expect(
      withoutImages('<p><a href="https://a.example"><img src="https://a.example/x.png"></a></p><p>Text</p>'),
    ).toBe('<p>Text</p>');
  });
});

describe('firstParagraphOf', () => {
  it('keeps the first paragraph, or everything when the content does not start with one', () => {
    expect(firstParagraphOf('<p>One</p><p>Two</p>')).toBe('<p>One</p>');
    expect(firstParagraphOf('<h2>Title</h2><p>Two</p>')).toBe('<h2>Title</h2><p>Two</p>');
  });
});

describe('safeHref', () => {
  it('accepts http(s) and mailto, refuses javascript: and relative addresses', () => {
    expect(safeHref('https://a.example/x')).toBe('https://a.example/x');
    expect(safeHref('mailto:ann@example.com')).toBe('mailto:ann@example.com');
    expect(safeHref('javascript:alert(1)')).toBeUndefined();
    expect(safeHref('/relative')).toBeUndefined();
  });
});
