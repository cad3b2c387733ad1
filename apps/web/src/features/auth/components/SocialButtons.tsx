import type { SocialProvider } from '@digest/contracts';
import { useLocation } from 'react-router';
import { Button, buttonClassName } from '#web/components/ui/Button';
import { type SocialMode, socialAuthUrl } from '../api/auth-api';
import { useSocialProviders } from '../api/use-auth';
import { keepSourcesForSocial } from '../lib/social-sources';
import styles from './SocialButtons.module.css';

const PROVIDERS: { provider: SocialProvider; name: string; Icon: () => React.JSX.Element }[] = [
  { provider: 'google', name: 'Google', Icon: GoogleIcon },
  { provider: 'twitter', name: 'Twitter', Icon: TwitterIcon },
  { provider: 'facebook', name: 'Facebook', Icon: FacebookIcon },
];

/**
 * Social sign-in / sign-up: plain links, because each one leaves the app for the provider. A provider the
 * server has no credentials for is a disabled button that says so, never a broken redirect. The kinds the
 * page's `?sources=` names are kept for the return (docs/product.md §2).
 */
export function SocialButtons({ mode }: { mode: SocialMode }) {
  const providers = useSocialProviders();
  const { search } = useLocation();
  const action = mode === 'signin' ? 'sign-in' : 'sign-up';
  return (
    <ul className={styles.list} aria-busy={providers.isPending || undefined}>
      {PROVIDERS.map(({ provider, name, Icon }) => {
        const configured = providers.data?.find((entry) => entry.provider === provider)?.configured;
        if (configured) {
          return (
            <li key={provider}>
              <a
                className={buttonClassName({
                  variant: 'secondary',
                  fullWidth: true,
                  className: styles.button,
                })}
                href={socialAuthUrl(mode, provider)}
                onClick={() => keepSourcesForSocial(search)}
              >
                <Icon />
                <span>Continue with {name}</span>
              </a>
            </li>
          );
        }
        const label = providers.isPending
          ? `Continue with ${name}`
          : providers.isError
            ? `${name} ${action} is unavailable right now`
            : `${name} ${action} is not configured on this server`;
        return (
          <li key={provider}>
            <Button variant="secondary" fullWidth className={styles.button} disabled>
              <Icon />
              <span>{label}</span>
            </Button>
          </li>
        );
      })}
    </ul>
  );
}

function GoogleIcon() {
  return (
    <svg className={styles.icon} viewBox="0 0 48 48" aria-hidden="true" focusable="false">
      <path
        fill="#EA4335"
        d="M24 9.5c3.54 0 6.71 1.22 9.21 3.6l6.85-6.85C35.9 2.38 30.47 0 24 0 14.62 0 6.51 5.38 2.56 13.22l7.98 6.19C12.43 13.72 17.74 9.5 24 9.5z"
      />
      <path
        fill="#4285F4"
        d="M46.98 24.55c0-1.57-.15-3.09-.38-4.55H24v9.02h12.94c-.58 2.96-2.26 5.48-4.78 7.18l7.73 6c4.51-4.18 7.09-10.36 7.09-17.65z"
      />
      <path
        fill="#FBBC05"
        d="M10.53 28.59c-.48-1.45-.76-2.99-.76-4.59s.27-3.14.76-4.59l-7.98-6.19C.92 16.46 0 20.12 0 24c0 3.88.92 7.54 2.56 10.78l7.97-6.19z"
      />
      <path
        fill="#34A853"
        d="M24 48c6.48 0 11.93-2.13 15.89-5.81l-7.73-6c-2.15 1.45-4.92 2.3-8.16 2.3-6.26 0-11.57-4.22-13.47-9.91l-7.98 6.19C6.51 42.62 14.62 48 24 48z"
      />
    </svg>
  );
}

function TwitterIcon() {
  return (
    <svg className={styles.icon} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path
        fill="#1D9BF0"
        d="M23.95 4.57a10 10 0 0 1-2.82.77 4.96 4.96 0 0 0 2.16-2.72c-.95.56-2 .96-3.13 1.18a4.92 4.92 0 0 0-8.38 4.49A13.98 13.98 0 0 1 1.64 3.16a4.82 4.82 0 0 0-.67 2.48c0 1.71.87 3.21 2.19 4.1a4.9 4.9 0 0 1-2.23-.62v.06a4.92 4.92 0 0 0 3.95 4.83 5 5 0 0 1-2.21.08 4.94 4.94 0 0 0 4.6 3.42A9.87 9.87 0 0 1 0 19.54a14 14 0 0 0 7.56 2.21c9.05 0 14-7.5 14-13.98 0-.21 0-.42-.02-.63A9.94 9.94 0 0 0 24 4.59z"
      />
    </svg>
  );
}

function FacebookIcon() {
  return (
    <svg className={styles.icon} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path
        fill="#1877F2"
        d="M24 12.07C24 5.41 18.63 0 12 0S0 5.4 0 12.07C0 18.1 4.39 23.1 10.13 24v-8.44H7.08v-3.49h3.04V9.41c0-3.02 1.8-4.7 4.54-4.7 1.31 0 2.68.24 2.68.24v2.97h-1.5c-1.5 0-1.96.93-1.96 1.89v2.26h3.32l-.53 3.5h-2.8V24C19.62 23.1 24 18.1 24 12.07"
      />
    </svg>
  );
}
