/**
 * Links and pictures a provider hands us end up in content (`href`, `src`): only http(s) may pass. A
 * `javascript:`, `data:` or any other scheme, or something that is no URL at all, becomes ''. A relative
 * value resolves against `base` when one is given (a Reddit permalink against reddit.com).
 */
export function httpUrlOrEmpty(value: string | null | undefined, base?: string): string {
  const text = (value ?? '').trim();
  if (text === '') return '';
  try {
    const url = base === undefined ? new URL(text) : new URL(text, base);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : '';
  } catch {
    return '';
  }
}
