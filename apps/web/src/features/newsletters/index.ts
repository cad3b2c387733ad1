export { NewslettersPage } from './pages/NewslettersPage';
