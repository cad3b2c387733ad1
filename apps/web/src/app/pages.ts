/**
 * Every page but the signed-out ones (log in, sign up, password recovery), which are in the entry chunk.
 * The routes load this module lazily, all of them the same module, so these pages come in one chunk
 * fetched only when one of them is opened; the server preloads it for their paths (docs/ARCHITECTURE.md
 * "Web build"), so it costs no extra round trip. The builder and the profile editor stay in chunks of
 * their own inside it.
 */
import '#web/lib/zod-messages';

export { AccountsPage } from '#web/features/accounts';
export { AdminPage } from '#web/features/admin';
export { lazyBuilderLayout, lazyDigestCreatorPage } from '#web/features/builder';
export { DigestDetailPage, DigestsPage } from '#web/features/dashboard';
export { MenuPage } from '#web/features/menu';
export { NewsletterReaderPage, NewslettersPage } from '#web/features/newsletters';
export { CreateDigestPage } from '#web/features/onboarding';
export { lazyEditProfilePage, ProfileViewPage, PublicProfilePage } from '#web/features/profile';
export { SharedDigestPage } from '#web/features/share';
export { DocumentPage, SupportPage } from '#web/features/static';
export { InvitationPage, UnsubscribePage } from '#web/features/subscriptions';
export { AppLayout } from './layouts/AppLayout';
export { PublicLayout } from './layouts/PublicLayout';
export { SettingsLayout } from './layouts/SettingsLayout';
export { WelcomeLayout } from './layouts/WelcomeLayout';
export { SignedInOnly } from './SignedInOnly';
