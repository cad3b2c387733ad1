/** The Digests page and a digest's own page, where the user manages the digests they have made. */
export { DigestDetailPage } from './pages/DigestDetailPage';
export { DigestsPage } from './pages/DigestsPage';
