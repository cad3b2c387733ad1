import { describe, expect, it } from 'vitest';
import { dropTrackingPixels } from './tracking-pixels';

describe('dropping tracking pixels', () => {
  it.each([
    ['a 1×1 image', '<img src="https://cdn.example/x.gif" width="1" height="1">'],
    ['a tiny image by its style', '<img src="https://cdn.example/x.gif" style="width:2px;height:2px">'],
    ['a hidden image', '<img src="https://cdn.example/banner.png" style="display: none !important">'],
    ['an invisible image', '<img src="https://cdn.example/banner.png" style="opacity:0">'],
    [
      'an image of no height',
      '<img src="https://cdn.example/banner.png" style="max-height:0;overflow:hidden">',
    ],
    ['an image marked hidden', '<img src="https://cdn.example/banner.png" hidden>'],
    ['Mailchimp’s open beacon', '<img src="https://list.us1.list-manage.com/track/open.php?u=1&id=2">'],
    ['SendGrid’s open beacon', '<img src="https://u123.ct.sendgrid.net/wf/open?upn=abc">'],
    ['Substack’s open beacon', '<img src="https://eotrx.substackcdn.com/open?token=abc">'],
    ['a pixel path', '<img src="https://news.example/pixel/abc123.gif">'],
  ])('drops %s', (_case, image) => {
    const html = `<p>Before</p>${image}<p>After</p>`;
    expect(dropTrackingPixels(html)).toBe('<p>Before</p><p>After</p>');
  });

  it('keeps real pictures, their text and the entities of the text as they were', () => {
    const html =
      '<p>Fish &amp; chips &lt;b&gt;</p><img src="https://cdn.example/photo.jpg" width="600" height="400" alt="A photo">' +
      '<img src="https://cdn.example/logo.png" alt="Logo"><img src="https://cdn.example/track.gif" width="1" height="1">';
    const kept = dropTrackingPixels(html);
    expect(kept).toContain(
      '<img src="https://cdn.example/photo.jpg" width="600" height="400" alt="A photo">',
    );
    expect(kept).toContain('<img src="https://cdn.example/logo.png" alt="Logo">');
    expect(kept).not.toContain('track.gif');
    expect(kept).toContain('Fish &amp; chips &lt;b&gt;');
  });

  it('leaves HTML without pixels untouched', () => {
    const html = '<table><tr><td><a href="https://news.example/a">Read</a></td></tr></table>';
    expect(dropTrackingPixels(html)).toBe(html);
  });
});
