import { SourceError } from './source-error';

/**
 * For providers read with a connected account: a 401/403 means the stored grant no longer works (revoked,
 * scope removed, account closed), so the user has to connect the account again. Use as `.catch(…)`.
 */
export function reconnectOnRefusal(provider: string) {
  return (error: unknown): never => {
    if (error instanceof SourceError && error.kind === 'unauthorized') {
      throw new SourceError(
        'not_connected',
        `${provider} refused the connected account: reconnect your account`,
      );
    }
    throw error;
  };
}
