import { Link, Navigate } from 'react-router';
import { Avatar } from '#web/components/ui/Avatar';
import {
  EditIcon,
  InboxIcon,
  LinkIcon,
  LogOutIcon,
  MailIcon,
  NewspaperIcon,
  PlusIcon,
  SparkIcon,
  UserIcon,
} from '#web/components/ui/icons';
import { SiteLink } from '#web/components/ui/SiteLink';
import { useLogout } from '#web/features/auth';
import { resetBuilder } from '#web/features/builder';
import { useDigestLimitReached } from '#web/features/digests';
import { MEDIA_QUERIES } from '#web/lib/breakpoints';
import { paths } from '#web/lib/paths';
import { useCurrentUser } from '#web/lib/session/use-me';
import { useSiteLinks } from '#web/lib/site';
import { useMediaQuery } from '#web/lib/use-media-query';
import styles from './MenuPage.module.css';

/** docs/product.md §2 /menu: the phone menu (header links plus Log out); desktops go to /digests. */
export function MenuPage() {
  const user = useCurrentUser();
  const desktop = useMediaQuery(MEDIA_QUERIES.desktop);
  const { logOut, pending } = useLogout();
  const limitReached = useDigestLimitReached();
  const { changelogUrl, supportMailto } = useSiteLinks();
  if (desktop) return <Navigate to={paths.digests} replace />;
  return (
    <nav className={styles.menu} aria-label="Menu">
      <title>Menu · Digest</title>
      <h1 className="visually-hidden">Menu</h1>
      <div className={styles.identity}>
        <Avatar src={user.profileImg} name={user.fullName} size="medium" />
        <div className={styles.names}>
          <span className={styles.fullName}>{user.fullName}</span>
          <span className={styles.username}>@{user.username}</span>
        </div>
      </div>
      <ul className={styles.list}>
        <li>
          <Link className={styles.item} to={paths.digests}>
            <InboxIcon /> Digests
          </Link>
        </li>
        <li>
          <Link className={styles.item} to={paths.newsletters}>
            <NewspaperIcon /> Newsletters
          </Link>
        </li>
        <li>
          {limitReached ? (
            // docs/product.md §5: no new digest when the user already has more than 99.
            <button type="button" className={styles.item} disabled>
              <PlusIcon /> Create digest
            </button>
          ) : (
            <Link className={styles.item} to={paths.digestCreator} onClick={resetBuilder}>
              <PlusIcon /> Create digest
            </Link>
          )}
        </li>
      </ul>
      <ul className={styles.list}>
        <li>
          <Link className={styles.item} to={paths.editProfile}>
            <EditIcon /> Edit profile
          </Link>
        </li>
        <li>
          <Link className={styles.item} to={paths.profileView}>
            <UserIcon /> Profile
          </Link>
        </li>
        <li>
          <Link className={styles.item} to={paths.accounts}>
            <LinkIcon /> Connected accounts
          </Link>
        </li>
        <li>
          <SiteLink className={styles.item} href={changelogUrl}>
            <SparkIcon /> Digest Updates
          </SiteLink>
        </li>
        <li>
          <a className={styles.item} href={supportMailto}>
            <MailIcon /> Support
          </a>
        </li>
      </ul>
      <button
        type="button"
        className={`${styles.item} ${styles.logout}`}
        onClick={() => void logOut()}
        disabled={pending}
      >
        <LogOutIcon /> Log out
      </button>
    </nav>
  );
}
