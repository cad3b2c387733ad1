export { CreateDigestPage } from './pages/CreateDigestPage';
