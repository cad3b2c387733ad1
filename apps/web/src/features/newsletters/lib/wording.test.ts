import { describe, expect, it } from 'vitest';
import { testSender } from '../test-newsletters';
import { authenticationText, formatMegabytes, pinnedTitle, quotaPercent, unsubscribeNotice } from './wording';

describe('newsletter wording', () => {
  it('says sizes in MB, never "0 MB" for a mailbox holding something', () => {
    expect(formatMegabytes(0)).toBe('0 MB');
    expect(formatMegabytes(2_000)).toBe('0.1 MB');
    expect(formatMegabytes(3.44 * 1024 * 1024)).toBe('3.4 MB');
    expect(formatMegabytes(200 * 1024 * 1024)).toBe('200 MB');
    expect(quotaPercent(250, 200)).toBe(100);
  });

  it('says a check plainly, with its domain when it has one', () => {
    expect(authenticationText('DKIM', { result: 'pass', domain: 'example.com' })).toBe(
      'DKIM pass (example.com)',
    );
    expect(authenticationText('SPF', { result: 'none', domain: null })).toBe('SPF none');
  });

  it('titles each kind of pinned message by what it asks', () => {
    expect(pinnedTitle({ kind: 'confirmation', senderName: 'Tech Weekly' })).toBe(
      'Confirm your subscription to Tech Weekly',
    );
    expect(pinnedTitle({ kind: 'forwarding_code', senderName: 'Gmail Team' })).toBe(
      'Forwarding code from Gmail Team',
    );
  });

  it('an open_link answer without a link reads as a failure, not an empty link', () => {
    expect(
      unsubscribeNotice({ outcome: 'open_link', detail: null, link: null, sender: testSender() }),
    ).toEqual({
      tone: 'error',
      text: 'Unsubscribe failed.',
    });
  });
});
