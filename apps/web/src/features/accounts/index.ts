/** Connected provider accounts (Google, X, Stripe): the Accounts page and the queries the builder's connect step uses. */
export {
  accountKeys,
  useConnectAccount,
  useConnectableProviders,
  useConnectedAccounts,
  useConnectOutcome,
  useLogOutAccount,
} from './api/use-accounts';
export { AccountsPage, accountName } from './pages/AccountsPage';
