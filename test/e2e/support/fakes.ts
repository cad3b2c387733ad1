/** The fake providers' origin (scripts/e2e.mjs starts them and passes their variables). */
export function fakesOrigin(): string {
  const env = JSON.parse(process.env.E2E_FAKES_ENV ?? '{}') as Record<string, string>;
  const any = Object.values(env).find((value) => value.startsWith('http://127.0.0.1'));
  if (!any) throw new Error('E2E_FAKES_ENV names no fake provider');
  return new URL(any).origin;
}
