import { formatCount } from '@digest/contracts';
import type { StripeAccountFigures } from '@digest/contracts/content';
import { emailClass as c } from '../../components/theme';
import { formatMoney } from '../format';
import { blockStyles as s } from '../styles';
import { sourceTitle } from '../titles';
import type { BlockProps } from '../types';
import { BlockFrame, Empty, ErrorNotice } from './parts';

interface Figure {
  label: string;
  value: string;
}

/** The figures the user asked for (null ones were not asked for), revenue in each currency it came in. */
function figuresOf(account: StripeAccountFigures, locale: string): Figure[] {
  const figures: Figure[] = [];
  if (account.revenue !== null) {
    const amounts = account.revenueByCurrency.length
      ? account.revenueByCurrency.map((revenue) => formatMoney(revenue.amount, revenue.currency, locale))
      : [account.currency ? formatMoney(account.revenue, account.currency, locale) : String(account.revenue)];
    figures.push({ label: 'Revenue', value: amounts.join(' + ') });
  }
  if (account.payments !== null) figures.push({ label: 'Payments', value: formatCount(account.payments) });
  if (account.customers !== null)
    figures.push({ label: 'New customers', value: formatCount(account.customers) });
  return figures;
}

function AccountFigures({ account, locale }: { account: StripeAccountFigures; locale: string }) {
  const figures = figuresOf(account, locale);
  return (
    <div style={s.item}>
      <h3 className={c.heading} style={{ ...s.title, fontSize: '15px', margin: '0 0 8px' }}>
        {account.username || account.tokenId}
      </h3>
      {account.message ? (
        <ErrorNotice>{`${account.username || 'This account'} could not be read: ${account.message}`}</ErrorNotice>
      ) : (
        <table role="presentation" width="100%" cellPadding={0} cellSpacing={4} style={s.columns}>
          <tbody>
            <tr>
              {figures.map((figure) => (
                <td key={figure.label} className={c.tile} style={s.tile}>
                  <p className={c.muted} style={s.meta}>
                    {figure.label}
                  </p>
                  <p className={c.text} style={{ ...s.title, fontSize: '18px' }}>
                    {figure.value}
                  </p>
                </td>
              ))}
            </tr>
          </tbody>
        </table>
      )}
    </div>
  );
}

/** STRIPE: each account's revenue, payments and new customers over the last 24 hours. */
export function StripeBlock({ source, content, context }: BlockProps<'STRIPE'>) {
  return (
    <BlockFrame title={sourceTitle(source)} showHeading={source.showHeading} subtitle="Last 24 hours">
      {content.accounts.length === 0 ? <Empty>No Stripe accounts</Empty> : null}
      {content.accounts.map((account) => (
        <AccountFigures key={account.tokenId} account={account} locale={context.locale} />
      ))}
    </BlockFrame>
  );
}
