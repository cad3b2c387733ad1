export { PlaceholderPage } from './pages/PlaceholderPage';
