import { describe, expect, it } from 'vitest';
import { accountsOf, excludeAccount, includeAccount, setAccountFlag } from './account-list';
import { testAccount } from './test-accounts';

const entry = (tokenId: string) => ({ tokenId, events: true, holidays: false });

describe('accounts chosen in a source (docs/product.md §5)', () => {
  it('an account is added only if its tokenId is not there yet', () => {
    const once = includeAccount([], entry('a'));
    const twice = includeAccount(once, { ...entry('a'), holidays: true });
    expect(twice).toEqual([entry('a')]);
    expect(includeAccount(twice, entry('b')).map((item) => item.tokenId)).toEqual(['a', 'b']);
  });

  it('an account can be left out again, and its options changed one by one', () => {
    const chosen = [entry('a'), entry('b')];
    expect(excludeAccount(chosen, 'a')).toEqual([entry('b')]);
    expect(setAccountFlag(chosen, 'b', 'holidays', true)).toEqual([
      entry('a'),
      { ...entry('b'), holidays: true },
    ]);
  });

  it("only the provider's own connected accounts are offered", () => {
    const accounts = [testAccount('GOOGLE', 'g1', 'ada'), testAccount('TWITTER', 't1', 'ada')];
    expect(accountsOf(accounts, 'TWITTER').map((account) => account.tokenId)).toEqual(['t1']);
  });
});
