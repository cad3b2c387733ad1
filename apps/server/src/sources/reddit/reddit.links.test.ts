import { redditSourceSchema } from '@digest/contracts';
import { describe, expect, it } from 'vitest';
import { connectorDeps, fakeProvidersForFile } from '#server/sources/sources.test-support';
import type { FakeProvider } from '#test/fakes/fake-providers';
import { redditClient } from './reddit.client';
import { redditConnector, subredditList } from './reddit.connector';

/** A Reddit that answers with links of other schemes, where its answers name a link or a picture. */
const hostileReddit: FakeProvider = {
  prefix: '/hostile-reddit',
  env: { REDDIT_BASE_URL: '' },
  handle(request) {
    if (request.path === '/r/hostile/hot.json') {
      const post = (id: string, permalink: string, picture: string) => ({
        kind: 't3',
        data: {
          id,
          title: `Post ${id}`,
          permalink,
          thumbnail: picture,
          preview: { images: [{ source: { url: picture } }] },
        },
      });
      return {
        body: {
          kind: 'Listing',
          data: {
            children: [
              post('evil', 'javascript:alert(document.cookie)//', 'javascript:alert(1)'),
              post('data', 'data:text/html,<script>alert(1)</script>', 'data:image/svg+xml,<svg/>'),
              post('fine', '/r/hostile/comments/fine/a_post/', 'https://i.redd.it/fine.png'),
            ],
          },
        },
      };
    }
    if (request.path === '/subreddits/popular.json') {
      return {
        body: {
          kind: 'Listing',
          data: {
            after: null,
            children: [
              {
                kind: 't5',
                data: {
                  name: 't5_evil',
                  display_name: 'evil',
                  url: 'javascript:alert(2)',
                  icon_img: 'javascript:alert(3)',
                  community_icon: 'vbscript:msgbox(4)',
                },
              },
            ],
          },
        },
      };
    }
    return undefined;
  },
};

const fakes = fakeProvidersForFile([hostileReddit]);
const CONTEXT = { userId: 'user-1', timezone: 'UTC', locale: 'en-US' };

describe('links a provider gives', () => {
  it('let only http(s) links and pictures of Reddit posts reach the content', async () => {
    const source = redditSourceSchema.parse({ type: 'REDDIT', sourceName: 'hostile', images: 'show' });
    const content = await redditConnector(connectorDeps(fakes)).fetchContent(source, CONTEXT);
    expect(content.posts.map(({ id, url, image }) => ({ id, url, image }))).toEqual([
      { id: 'evil', url: '', image: '' },
      { id: 'data', url: '', image: '' },
      {
        id: 'fine',
        url: 'https://www.reddit.com/r/hostile/comments/fine/a_post/',
        image: 'https://i.redd.it/fine.png',
      },
    ]);
  });

  it('let no other scheme through as the link or icon of a listed subreddit', async () => {
    const page = await subredditList(redditClient(connectorDeps(fakes)), { limit: 10 });
    expect(page.subreddits).toEqual([expect.objectContaining({ name: 'evil', url: '', icon: '' })]);
  });
});
