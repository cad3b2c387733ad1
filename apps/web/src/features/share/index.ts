/** Sharing a digest: its public page, the link to it, and the dialog that invites friends. */
export { useIssueHtml } from './api/shared-html';
export { IssueFrame } from './components/IssueFrame';
export { ShareDialog } from './components/ShareDialog';
export { addPendingEmail } from './lib/pending-emails';
export { publicDigestPath } from './lib/share-link';
export { SharedDigestPage } from './pages/SharedDigestPage';
