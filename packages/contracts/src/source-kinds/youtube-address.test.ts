import { describe, expect, it } from 'vitest';
import { youtubeAddressOf } from './youtube-address';

const ID = 'UCsBjURrPoezykLs9EqgamOA';

describe('a pasted YouTube address names a channel or the page that names it', () => {
  it.each([
    [`https://www.youtube.com/channel/${ID}`, { kind: 'channel', channelId: ID }],
    [`youtube.com/channel/${ID}/videos`, { kind: 'channel', channelId: ID }],
    [ID, { kind: 'channel', channelId: ID }],
    ['https://www.youtube.com/@Fireship', { kind: 'page', path: '/@Fireship' }],
    ['m.youtube.com/@fireship/videos', { kind: 'page', path: '/@fireship' }],
    ['@Fireship', { kind: 'page', path: '/@Fireship' }],
    ['https://www.youtube.com/c/Fireship', { kind: 'page', path: '/c/Fireship' }],
    ['https://www.youtube.com/user/GoogleDevelopers', { kind: 'page', path: '/user/GoogleDevelopers' }],
    ['https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=42', { kind: 'page', path: '/watch?v=dQw4w9WgXcQ' }],
    ['https://youtu.be/dQw4w9WgXcQ?si=abc', { kind: 'page', path: '/watch?v=dQw4w9WgXcQ' }],
    ['https://www.youtube.com/shorts/dQw4w9WgXcQ', { kind: 'page', path: '/watch?v=dQw4w9WgXcQ' }],
  ])('%s', (text, address) => {
    expect(youtubeAddressOf(text)).toEqual(address);
  });

  it.each([
    'fireship',
    'web development',
    '@',
    'https://example.com/@Fireship',
    'https://www.youtube.com.evil.test/@Fireship',
    'javascript:alert(1)//youtube.com/@x',
    'https://www.youtube.com/watch?v=short',
    'https://www.youtube.com/channel/not-an-id',
    'https://www.youtube.com/c/../../admin',
    'https://youtu.be/',
    'ftp://www.youtube.com/@Fireship',
  ])('%s is a search phrase, not an address', (text) => {
    expect(youtubeAddressOf(text)).toBeNull();
  });
});
