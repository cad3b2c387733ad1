import { type DataSource, SOURCE_SCHEMAS, type YoutubeSource } from '@digest/contracts';
import type { YoutubeChannel } from '@digest/contracts/content';
import { describe, expect, it } from 'vitest';
import { catalogueKeys } from '#web/features/builder/api/catalogue-api';
import { youtubeKeys } from '#web/features/builder/api/youtube-api';
import { buttonTag, panelProps, renderWithData } from '../form/render-panel';
import { channelSearchUnavailable, channelSettings } from './channels';
import { ChannelResults, YoutubePanel } from './YoutubePanel';

const veritasium: YoutubeChannel = {
  channelId: 'UCHnyfMqiRRG1u-2MsSQLbXA',
  title: 'Veritasium',
  description: 'An element of truth',
  subscribers: 17_400_000,
  icon: 'https://yt3.ggpht.com/veritasium.jpg',
};

const youtubeEntry = (search: boolean): DataSource => ({
  type: 'YOUTUBE',
  name: 'YouTube',
  path: 'youtube',
  category: 'socials',
  popular: true,
  accountProvider: null,
  configured: true,
  searchConfigured: search,
  ...(search ? {} : { reason: 'YouTube search is not configured on this server' }),
});

const saved: YoutubeSource = {
  type: 'YOUTUBE',
  name: 'Science',
  showHeading: true,
  channelId: veritasium.channelId,
  channelName: 'Veritasium',
  sourceName: 'Veritasium',
  numberOfPosts: 4,
  layout: 1,
  images: 'hide',
  onlyNew: true,
};

describe('YouTube channels', () => {
  it('a picked channel gives its id and title, valid for the YouTube settings', () => {
    expect(SOURCE_SCHEMAS.YOUTUBE.parse({ type: 'YOUTUBE', ...channelSettings(veritasium) })).toMatchObject({
      channelId: veritasium.channelId,
      channelName: 'Veritasium',
      numberOfPosts: 6,
      layout: 2,
    });
  });

  it('search is unavailable only when the catalogue says so', () => {
    expect(channelSearchUnavailable(undefined)).toBeNull();
    expect(channelSearchUnavailable([youtubeEntry(true)])).toBeNull();
    expect(channelSearchUnavailable([youtubeEntry(false)])).toBe(
      'YouTube search is not configured on this server',
    );
  });
});

describe('YouTube panel (docs/product.md §4: selected → searching → edit)', () => {
  it("selected: the search box and the 'Popular' channels with subscribers as K/M", () => {
    const html = renderWithData(<YoutubePanel {...panelProps('YOUTUBE', 'selected')} />, [
      [catalogueKeys.all, [youtubeEntry(true)]],
      [youtubeKeys.channels(''), [veritasium]],
    ]);
    expect(html).toContain('placeholder="Search channels"');
    expect(html).toContain('>Popular</h3>');
    expect(html).toContain('Veritasium');
    expect(html).toContain('17.4M subscribers');
  });

  it('selected: without search on this server, says so and takes a channel address instead', () => {
    const html = renderWithData(<YoutubePanel {...panelProps('YOUTUBE', 'selected')} />, [
      [catalogueKeys.all, [youtubeEntry(false)]],
      [youtubeKeys.channels(''), [veritasium]],
    ]);
    expect(html).not.toContain('placeholder="Search channels"');
    expect(html).toContain('placeholder="Paste a channel address"');
    expect(html).toContain(
      'YouTube search is not configured on this server: paste a channel&#x27;s address (youtube.com/@name, a channel or a video link), or choose one of the popular channels.',
    );
    expect(html).toContain('Veritasium');
  });

  it('a channel whose subscribers are unknown (0) shows no count rather than "0 subscribers"', () => {
    const address = 'https://www.youtube.com/@veritasium';
    const html = renderWithData(<ChannelResults query={address} onPick={() => {}} />, [
      [youtubeKeys.channels(address), [{ ...veritasium, subscribers: 0, icon: '', description: '' }]],
    ]);
    expect(html).toContain('Veritasium');
    expect(html).not.toContain('subscriber');
  });

  it("searching: 'Results' for a phrase", () => {
    const html = renderWithData(<ChannelResults query="veritas" onPick={() => {}} />, [
      [youtubeKeys.channels('veritas'), [veritasium]],
    ]);
    expect(html).toContain('>Results</h3>');
    expect(html).toContain('Veritasium');
  });

  it('edit: a saved block opens with its channel and every setting', () => {
    const html = renderWithData(<YoutubePanel {...panelProps('YOUTUBE', 'edit', { initial: saved })} />);
    expect(buttonTag(html, 'Change')).toContain('aria-label="Change channel"');
    expect(html).toContain('value="Science"');
    expect(html).toMatch(/name="numberOfPosts"[^>]*value="4"/);
    expect(html).toContain('<option value="1" selected="">1 Column</option>');
    expect(html).toContain('<option value="hide" selected="">Hide</option>');
    expect(buttonTag(html, 'Save')).not.toContain('disabled');
  });
});
