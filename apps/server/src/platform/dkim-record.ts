import { createPublicKey, type KeyObject } from 'node:crypto';

/**
 * The DNS TXT record receivers read at `<selector>._domainkey.<domain>` to check a DKIM signature
 * (RFC 6376 §3.6.1): the public half of the signing key, as base64 DER. Given the private key, it
 * derives the public one, so the record and the key in use never disagree.
 */
export function dkimTxtRecord(key: KeyObject | string): string {
  const der = createPublicKey(key).export({ type: 'spki', format: 'der' });
  return `v=DKIM1; k=rsa; p=${der.toString('base64')}`;
}
