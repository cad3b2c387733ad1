import type { NewsletterMailbox, NewsletterSender, SourceOf } from '@digest/contracts';
import { describe, expect, it } from 'vitest';
import { newsletterMailboxKeys } from '../../api/newsletters-api';
import { buttonTag, panelProps, renderWithData } from '../form/render-panel';
import { NewslettersPanel } from './NewslettersPanel';

const sender = (senderId: string, name: string, state: NewsletterSender['state'] = 'included') =>
  ({ senderId, name, address: `${name.toLowerCase()}@letters.example`, state }) as NewsletterSender;

const LETTERS = '8a0c43f5-5d3e-4a57-9b1e-3d6f1f0a2b11';
const QUIET = '1b2c3d4e-5f60-4a71-8b92-a3b4c5d6e7f8';

function mailbox(senders: NewsletterSender[], address: string | null = 'ann@digest.test'): NewsletterMailbox {
  return {
    address,
    receiving: true,
    usedBytes: 0,
    quotaBytes: 200 * 1024 * 1024,
    full: false,
    unreadCount: 0,
    senders,
    pinned: [],
  };
}

const render = (initial: SourceOf<'NEWSLETTERS'> | null, box: NewsletterMailbox) =>
  renderWithData(<NewslettersPanel {...panelProps('NEWSLETTERS', 'edit', { initial })} />, [
    [newsletterMailboxKeys.mailbox(), box],
  ]);

const saved = (settings: Partial<SourceOf<'NEWSLETTERS'>>): SourceOf<'NEWSLETTERS'> => ({
  type: 'NEWSLETTERS',
  name: '',
  showHeading: true,
  senders: 'all',
  count: 5,
  layout: 'summary',
  ...settings,
});

describe('Newsletters settings (issue 14)', () => {
  it('starts with all included senders, 5 newsletters, title, sender and excerpt, and Save ready', () => {
    const html = render(null, mailbox([sender(LETTERS, 'Letters')]));
    expect(html).toContain('placeholder="Newsletters"');
    expect(html).toContain('<option value="all" selected="">All included senders</option>');
    expect(html).toMatch(/name="count"[^>]*value="5"/);
    expect(html).toContain('1 to 20');
    expect(html).toContain('<option value="summary" selected="">Title, sender and excerpt</option>');
    expect(html).toContain('Whole issue');
    // The senders are listed only once the user chooses them.
    expect(html).not.toContain('name="sender"');
    expect(buttonTag(html, 'Save')).not.toContain('disabled');
  });

  it('chosen senders: each sender to tick, its state when it brings nothing to digests', () => {
    const html = render(
      saved({ senders: [LETTERS], layout: 'full' }),
      mailbox([sender(LETTERS, 'Letters'), sender(QUIET, 'Quiet', 'muted')]),
    );
    expect(html).toContain('<option value="chosen" selected="">Chosen senders</option>');
    expect(html).toContain(`name="sender" checked="" value="${LETTERS}"`);
    expect(html).toContain(`name="sender" value="${QUIET}"`);
    expect(html).toContain('Quiet · muted: not in digests');
    expect(html).toContain('<option value="full" selected="">Whole issue</option>');
  });

  it('refuses no chosen sender and 21 newsletters with the schema messages, and disables Save', () => {
    const none = render(saved({ senders: [] as unknown as string[] }), mailbox([sender(LETTERS, 'Letters')]));
    expect(none).toContain('Choose at least one sender, or all senders');
    expect(buttonTag(none, 'Save')).toContain('disabled');
    const many = render(saved({ count: 21 }), mailbox([sender(LETTERS, 'Letters')]));
    expect(many).toContain('Number of newsletters must be at most 20');
    expect(buttonTag(many, 'Save')).toContain('disabled');
  });

  it('a user with no newsletter yet sees their address, to subscribe with', () => {
    const html = render(null, mailbox([]));
    expect(html).toContain('No newsletters yet.');
    expect(html).toContain('<strong>ann@digest.test</strong>');
    const nameless = render(null, mailbox([], null));
    expect(nameless).toContain('Choose a username in your profile');
  });

  it('says so when the server does not receive mail, since the block would stay empty', () => {
    expect(render(null, { ...mailbox([]), receiving: false })).toContain(
      'This server does not receive newsletters yet',
    );
    expect(render(null, mailbox([]))).not.toContain('does not receive');
  });
});
