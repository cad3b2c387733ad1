export { UnsubscribePage } from './pages/UnsubscribePage';
