import { Link } from 'react-router';
import { Avatar } from '#web/components/ui/Avatar';
import { buttonClassName } from '#web/components/ui/Button';
import { PageHeader } from '#web/components/ui/PageHeader';
import { paths } from '#web/lib/paths';
import { useCurrentUser } from '#web/lib/session/use-me';
import { usePublicProfile } from '../api/public-profile-api';
import { PublicDigestList } from '../components/PublicDigestList';
import styles from './ProfileViewPage.module.css';

/** docs/product.md §2 profile area (/profileView/*, /user/* and any other path); back chevron to /menu on phones. */
export function ProfileViewPage() {
  const user = useCurrentUser();
  const since = new Date(user.createdAt);
  // The digests as anyone sees them: public and active only (docs/design.md §10).
  const profile = usePublicProfile(user.username ?? '', Boolean(user.username));
  return (
    <>
      <title>Profile · Digest</title>
      <PageHeader
        title="Profile"
        mobileBackTo={paths.menu}
        backLabel="Back to menu"
        description="Your profile is public; it lists the digests whose public link you turned on."
      />
      <section className={styles.card} aria-label="Your public profile">
        <Avatar src={user.profileImg} name={user.fullName} size="large" />
        <div className={styles.names}>
          <h2 className={styles.fullName}>{user.fullName}</h2>
          <p className={styles.username}>@{user.username}</p>
        </div>
        {user.bio ? <p className={styles.bio}>{user.bio}</p> : null}
        <dl className={styles.facts}>
          {user.newsletterEmail ? (
            <div>
              <dt>Newsletter address</dt>
              <dd>{user.newsletterEmail}</dd>
            </div>
          ) : null}
          {user.timezone ? (
            <div>
              <dt>Timezone</dt>
              <dd>{user.timezone.timezone.replaceAll('_', ' ')}</dd>
            </div>
          ) : null}
          {Number.isNaN(since.getTime()) ? null : (
            <div>
              <dt>Member since</dt>
              <dd>
                {since.toLocaleDateString(undefined, { year: 'numeric', month: 'long', day: 'numeric' })}
              </dd>
            </div>
          )}
        </dl>
        {profile.data ? (
          <PublicDigestList
            digests={profile.data.digests}
            emptyText="No public digests: a digest's Share dialog turns its public link on."
          />
        ) : null}
        <div className={styles.links}>
          <Link className={buttonClassName({ variant: 'secondary' })} to={paths.editProfile}>
            Edit profile
          </Link>
          {user.username ? (
            <Link className={buttonClassName({ variant: 'ghost' })} to={`${paths.user}/${user.username}`}>
              See your public profile
            </Link>
          ) : null}
        </div>
      </section>
    </>
  );
}
