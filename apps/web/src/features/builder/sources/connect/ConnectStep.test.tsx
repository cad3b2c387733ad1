import { describe, expect, it } from 'vitest';
import { buttonTag } from '../form/render-panel';
import { ConnectStep } from './ConnectStep';
import { renderWithAccounts, testAccount } from './test-accounts';

const google = testAccount('GOOGLE', 'g1', 'ada');
const twitter = testAccount('TWITTER', 't1', 'ada_x');

describe('Connect step (docs/product.md §4)', () => {
  it("with no account: 'This source is not connected yet.', a hint, and Connect", () => {
    const html = renderWithAccounts(<ConnectStep provider="GOOGLE" onContinue={() => {}} />, [twitter]);
    expect(html).toContain('This source is not connected yet.');
    expect(html).toContain('Connect your Google account first, then edit the source');
    expect(buttonTag(html, 'Connect Google')).not.toContain('disabled');
    expect(buttonTag(html, 'Continue')).toBeUndefined();
  });

  it("lists the provider's accounts, each with Log Out, and goes on with Continue", () => {
    const html = renderWithAccounts(<ConnectStep provider="GOOGLE" onContinue={() => {}} />, [
      google,
      twitter,
    ]);
    expect(html).not.toContain('This source is not connected yet.');
    expect(html).toContain('ada@example.com');
    expect(html).not.toContain('@ada_x');
    expect(html).toContain('aria-label="Log Out ada@example.com"');
    expect(buttonTag(html, 'Continue')).toBeDefined();
    expect(buttonTag(html, 'Connect another Google account')).toBeDefined();
  });

  it('Twitter: each account is picked on its own', () => {
    const html = renderWithAccounts(<ConnectStep provider="TWITTER" onPick={() => {}} />, [twitter]);
    expect(html).toContain('@ada_x');
    expect(html).toContain('Use this account');
    expect(buttonTag(html, 'Continue')).toBeUndefined();
  });

  it('a provider the server has no credentials for says so, and Connect is disabled', () => {
    const html = renderWithAccounts(<ConnectStep provider="STRIPE" onContinue={() => {}} />, [], {
      unconfigured: ['STRIPE'],
    });
    expect(html).toContain('Stripe accounts cannot be connected: this server is not configured for them.');
    expect(buttonTag(html, 'Connect Stripe')).toContain('disabled');
  });
});
