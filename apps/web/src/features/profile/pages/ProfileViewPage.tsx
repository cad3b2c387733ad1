import { Link } from 'react-router';
import { Avatar } from '#web/components/ui/Avatar';
import { buttonClassName } from '#web/components/ui/Button';
import { PageHeader } from '#web/components/ui/PageHeader';
import { useDigests } from '#web/features/digests';
import { paths } from '#web/lib/paths';
import { useCurrentUser } from '#web/lib/session/use-me';
import { PublicDigestList } from '../components/PublicDigestList';
import styles from './ProfileViewPage.module.css';

/** docs/product.md §2 profile area (/profileView/*, /user/* and any other path); back chevron to /menu on phones. */
export function ProfileViewPage() {
  const user = useCurrentUser();
  const since = new Date(user.createdAt);
  const digests = useDigests();
  return (
    <>
      <title>Profile · Digest</title>
      <PageHeader
        title="Profile"
        mobileBackTo={paths.menu}
        backLabel="Back to menu"
        description="Your profile is public, because all digests are public."
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
        {digests.data ? (
          <PublicDigestList
            digests={digests.data.map((digest) => ({
              digestId: digest.digestId,
              name: digest.name,
              latestBuildNumber: digest.latestBuildNumber,
            }))}
            emptyText="You have no digests yet."
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
