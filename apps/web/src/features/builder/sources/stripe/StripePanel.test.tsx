import { describe, expect, it } from 'vitest';
import { renderWithAccounts, testAccount } from '../connect/test-accounts';
import { buttonTag, panelProps } from '../form/render-panel';
import { StripePanel } from './StripePanel';
import { stripeAccountOf } from './stripe-accounts';

const shop = {
  ...testAccount('STRIPE', 's1', 'Ada Shop'),
  profilePicture: 'https://files.stripe.test/ada.png',
};

describe('Stripe settings (docs/product.md §4)', () => {
  it('an included account keeps its name and picture, with revenue, payments and customers on', () => {
    expect(stripeAccountOf(shop)).toEqual({
      tokenId: 's1',
      username: 'Ada Shop',
      profilePicture: 'https://files.stripe.test/ada.png',
      revenue: true,
      payments: true,
      customers: true,
    });
  });

  it('a picture the schema refuses is left out, not the account', () => {
    const entry = stripeAccountOf({ ...shop, profilePicture: 'javascript:alert(1)' });
    expect(entry).toMatchObject({ tokenId: 's1', username: 'Ada Shop' });
    expect(entry).not.toHaveProperty('profilePicture');
  });

  it('Save is disabled with no account chosen, enabled with one', () => {
    const none = renderWithAccounts(<StripePanel {...panelProps('STRIPE', 'edit')} />, [shop]);
    expect(none).toContain('Ada Shop');
    expect(buttonTag(none, 'Save')).toContain('disabled');

    const initial = {
      type: 'STRIPE' as const,
      name: '',
      showHeading: true,
      stripeAccounts: [stripeAccountOf(shop)],
    };
    const chosen = renderWithAccounts(<StripePanel {...panelProps('STRIPE', 'edit', { initial })} />, [shop]);
    expect(chosen).toContain('Revenue');
    expect(chosen).toContain('Customers');
    expect(buttonTag(chosen, 'Save')).not.toContain('disabled');
  });

  it("starts at connect with 'This source is not connected yet.' when there is no Stripe account", () => {
    const html = renderWithAccounts(<StripePanel {...panelProps('STRIPE', 'connect')} />, []);
    expect(html).toContain('This source is not connected yet.');
  });
});
