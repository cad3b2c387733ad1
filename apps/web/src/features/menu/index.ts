export { MenuPage } from './pages/MenuPage';
