export { DocumentPage } from './pages/DocumentPage';
export { SupportPage } from './pages/SupportPage';
