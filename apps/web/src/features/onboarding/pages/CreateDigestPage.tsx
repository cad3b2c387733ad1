import { MAX_SOURCES, type SourceType } from '@digest/contracts';
import { useState } from 'react';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router';
import { Button } from '#web/components/ui/Button';
import { Checkbox } from '#web/components/ui/Checkbox';
import { InboxIcon, NewspaperIcon, SparkIcon } from '#web/components/ui/icons';
import { Spinner } from '#web/components/ui/Spinner';
import { guidedKinds, resetBuilder, useCatalogue } from '#web/features/builder';
import { SourceIcon } from '#web/features/digests';
import { guidedBuilderPath, parseGuidedSources } from '#web/lib/guided-sources';
import { paths, SOURCES_PARAM } from '#web/lib/paths';
import { isProfileComplete, useCurrentUser } from '#web/lib/session/use-me';
import { OnboardingForm } from '../components/OnboardingForm';
import styles from './CreateDigestPage.module.css';

/**
 * /createDigest: the onboarding until the profile has a full name and a username, then the welcome page;
 * or, when the address names kinds (`?sources=`, kept from the sign-up), the builder opening them in turn
 * (docs/product.md §2).
 */
export function CreateDigestPage() {
  const user = useCurrentUser();
  const [params] = useSearchParams();
  const preselected = parseGuidedSources(params.get(SOURCES_PARAM), MAX_SOURCES);
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
  // Replaced, and the builder drops the parameter in turn: Back and later visits show the welcome page.
  if (preselected.length > 0) return <Navigate to={guidedBuilderPath(preselected)} replace />;
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
      <StartingSources />
    </section>
  );
}

/**
 * The kinds to start with: 'Create digest' opens a fresh builder that walks through them in turn
 * (docs/product.md §2 guided sequence); with none picked, the builder opens at its list of kinds.
 */
function StartingSources() {
  const navigate = useNavigate();
  const catalogue = useCatalogue();
  const [picked, setPicked] = useState<ReadonlySet<SourceType>>(new Set());
  const kinds = guidedKinds(catalogue.data ?? []);

  function toggle(type: SourceType, on: boolean) {
    setPicked((current) => {
      const next = new Set(current);
      if (on) next.add(type);
      else next.delete(type);
      return next;
    });
  }

  function create() {
    resetBuilder();
    navigate(guidedBuilderPath(kinds.filter((kind) => picked.has(kind.type)).map((kind) => kind.type)));
  }

  return (
    <>
      <fieldset className={styles.picker}>
        <legend className={styles.legend}>What would you like in it?</legend>
        {catalogue.isPending ? (
          <Spinner label="Loading sources…" />
        ) : catalogue.isError ? (
          <p className={styles.note}>The sources could not be listed: you can pick them in the builder.</p>
        ) : (
          <ul className={styles.tiles}>
            {kinds.map((kind) => (
              <li key={kind.type}>
                <Checkbox
                  className={styles.tile}
                  checked={picked.has(kind.type)}
                  disabled={!kind.configured}
                  onChange={(event) => toggle(kind.type, event.target.checked)}
                  label={
                    <span className={styles.tileLabel}>
                      {/* The icon repeats the name. */}
                      <span aria-hidden="true">
                        <SourceIcon type={kind.type} />
                      </span>
                      <span className={styles.tileText}>
                        {kind.name}
                        {kind.configured ? null : <span className={styles.reason}>{kind.reason}</span>}
                      </span>
                    </span>
                  }
                />
              </li>
            ))}
          </ul>
        )}
      </fieldset>
      <div className={styles.actions}>
        <Button fullWidth onClick={create}>
          Create digest
        </Button>
        <Link className={styles.secondary} to={paths.digests}>
          Go to my Digests
        </Link>
      </div>
    </>
  );
}
