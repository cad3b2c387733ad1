export { InvitationPage } from './pages/InvitationPage';
export { UnsubscribePage } from './pages/UnsubscribePage';
