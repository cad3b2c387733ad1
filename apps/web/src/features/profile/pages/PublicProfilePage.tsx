import { Link, useParams } from 'react-router';
import { Avatar } from '#web/components/ui/Avatar';
import { Button, buttonClassName } from '#web/components/ui/Button';
import { EmptyState } from '#web/components/ui/EmptyState';
import { UserIcon } from '#web/components/ui/icons';
import { PageSpinner } from '#web/components/ui/PageSpinner';
import { ApiError, errorMessage } from '#web/lib/api-client';
import { paths } from '#web/lib/paths';
import { useMe } from '#web/lib/session/use-me';
import { usePublicProfile } from '../api/public-profile-api';
import { PublicDigestList } from '../components/PublicDigestList';
import styles from './ProfileViewPage.module.css';

export const USER_NOT_FOUND_TITLE = 'User not found';

/** `/user/{username}`: anyone's public profile — photo, name, bio and digests (docs/product.md §1, §2). */
export function PublicProfilePage() {
  const { username = '' } = useParams();
  const profile = usePublicProfile(username);
  const me = useMe().data;
  const own = me?.username?.toLowerCase() === username.toLowerCase();

  let content: React.ReactNode;
  if (profile.isPending) {
    content = <PageSpinner label="Loading the profile…" />;
  } else if (profile.isError) {
    const missing = profile.error instanceof ApiError && profile.error.status === 404;
    content = (
      <EmptyState
        icon={<UserIcon />}
        title={missing ? USER_NOT_FOUND_TITLE : 'The profile could not be loaded'}
        headingLevel={1}
        action={missing ? null : <Button onClick={() => void profile.refetch()}>Try again</Button>}
      >
        <p>{missing ? `There is no Digest user called @${username}.` : errorMessage(profile.error)}</p>
      </EmptyState>
    );
  } else {
    const { user, digests } = profile.data;
    content = (
      <section className={styles.card} aria-labelledby="public-profile-name">
        <Avatar src={user.profileImg} name={user.fullName} size="large" />
        <div className={styles.names}>
          <h1 id="public-profile-name" className={styles.fullName}>
            {user.fullName ?? user.username}
          </h1>
          <p className={styles.username}>@{user.username}</p>
        </div>
        {user.bio ? <p className={styles.bio}>{user.bio}</p> : null}
        <PublicDigestList
          digests={digests}
          emptyText={`${user.fullName ?? user.username} has no public digests yet.`}
        />
        {own ? (
          <Link className={buttonClassName({ variant: 'secondary' })} to={paths.editProfile}>
            Edit profile
          </Link>
        ) : null}
      </section>
    );
  }

  const title = profile.data
    ? `${profile.data.user.fullName ?? profile.data.user.username} · Digest`
    : 'Profile · Digest';
  return (
    <div className={styles.page}>
      <title>{title}</title>
      {content}
    </div>
  );
}
