export { AdminPage } from './pages/AdminPage';
