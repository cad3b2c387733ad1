import { SOURCE_LABELS } from '@digest/contracts';
import { AccountChoices } from '../connect/AccountChoices';
import { ConnectStep } from '../connect/ConnectStep';
import { useBackToConnect, useProviderAccounts } from '../connect/use-provider-accounts';
import { StripeConditionFields } from '../form/ConditionFields';
import { NameField, SettingsForm } from '../form/SettingsFields';
import { settingDefaults } from '../form/setting-defaults';
import { useSourceForm } from '../form/use-source-form';
import type { SourcePanelProps } from '../panel';
import { type StripeAccount, stripeAccountOf } from './stripe-accounts';

const STRIPE_FLAGS = [
  { field: 'revenue', label: 'Revenue' },
  { field: 'payments', label: 'Payments' },
  { field: 'customers', label: 'Customers' },
] as const;

/**
 * docs/product.md §4 Stripe: connect a Stripe account, then choose which accounts the Digest reads and which of
 * their figures. Save needs at least one account chosen.
 */
export function StripePanel({ step, goTo, initial, onChange, onSave }: SourcePanelProps<'STRIPE'>) {
  if (step === 'connect') return <ConnectStep provider="STRIPE" onContinue={() => goTo('edit')} />;
  return <StripeSettings goTo={goTo} initial={initial} onChange={onChange} onSave={onSave} />;
}

function StripeSettings({
  goTo,
  initial,
  onChange,
  onSave,
}: Pick<SourcePanelProps<'STRIPE'>, 'goTo' | 'initial' | 'onChange' | 'onSave'>) {
  const form = useSourceForm('STRIPE', { ...settingDefaults('STRIPE'), ...initial }, onChange);
  const { accounts } = useProviderAccounts('STRIPE');
  useBackToConnect(accounts?.length === 0, goTo);
  const canSave =
    form.source !== null && (accounts?.length ?? 0) > 0 && (form.source.stripeAccounts?.length ?? 0) > 0;
  return (
    <SettingsForm canSave={canSave} onSave={() => form.source && onSave(form.source)}>
      <NameField form={form} placeholder={SOURCE_LABELS.STRIPE} />
      <AccountChoices
        accounts={accounts ?? []}
        chosen={(form.values.stripeAccounts ?? []) as StripeAccount[]}
        flags={STRIPE_FLAGS}
        entryOf={stripeAccountOf}
        onChange={(stripeAccounts) => form.set('stripeAccounts', stripeAccounts)}
      />
      <StripeConditionFields form={form} />
    </SettingsForm>
  );
}
