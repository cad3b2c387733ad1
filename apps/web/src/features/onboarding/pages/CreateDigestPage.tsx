import { Link } from 'react-router';
import { paths } from '../../../app/paths';
import { buttonClassName } from '../../../components/ui/Button';
import { InboxIcon, NewspaperIcon, SparkIcon } from '../../../components/ui/icons';
import { isProfileComplete, useCurrentUser } from '../../profile/api/use-me';
import { OnboardingForm } from '../components/OnboardingForm';
import styles from './CreateDigestPage.module.css';

/** /createDigest: the onboarding until the profile has a full name and a username, then the welcome page. */
export function CreateDigestPage() {
  const user = useCurrentUser();
  if (!isProfileComplete(user)) {
    return (
      <section className={styles.card} aria-labelledby="welcome-title">
        <title>Welcome · Digest</title>
        <header className={styles.heading}>
          <h1 id="welcome-title" className={styles.title}>
            Welcome to Digest!
          </h1>
          <p className={styles.subtitle}>Tell us your name and choose a username to finish signing up.</p>
        </header>
        <OnboardingForm user={user} />
      </section>
    );
  }
  return (
    <section className={`${styles.card} ${styles.wide}`} aria-labelledby="welcome-title">
      <title>Create a digest · Digest</title>
      <header className={styles.heading}>
        <h1 id="welcome-title" className={styles.title}>
          Welcome, {user.fullName}!
        </h1>
        <p className={styles.subtitle}>
          Build your first Digest: pick the things you follow and get them in one e-mail, daily, weekly or
          monthly.
        </p>
      </header>
      <ol className={styles.steps}>
        <li>
          <span className={styles.stepIcon}>
            <NewspaperIcon />
          </span>
          <span>
            <strong>Add at least 3 sources</strong>: news, feeds, subreddits, videos, the weather, your
            calendar…
          </span>
        </li>
        <li>
          <span className={styles.stepIcon}>
            <SparkIcon />
          </span>
          <span>
            <strong>Choose when it arrives</strong>: every day, once a week or once a month, at your time.
          </span>
        </li>
        <li>
          <span className={styles.stepIcon}>
            <InboxIcon />
          </span>
          <span>
            <strong>Read it</strong> in your inbox or in your account, and share it with friends.
          </span>
        </li>
      </ol>
      <div className={styles.actions}>
        <Link className={buttonClassName({ fullWidth: true })} to={paths.digestCreator}>
          Create digest
        </Link>
        <Link className={styles.secondary} to={paths.digests}>
          Go to my Digests
        </Link>
      </div>
    </section>
  );
}
