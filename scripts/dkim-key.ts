// `npm run dkim:key -- <selector> <domain>`: makes a DKIM key pair for signing Digest's mail. The private key
// goes into a file only the owner may read (never onto the screen, where it would end up in a terminal's
// history); the variables to set and the DNS TXT record to publish are printed.
import { generateKeyPairSync } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { dkimTxtRecord } from '#server/platform/dkim-record';

const [selector, domain] = process.argv.slice(2);
if (!selector || !domain) {
  console.error(
    'usage: npm run dkim:key -- <selector> <domain>   e.g. npm run dkim:key -- digest2026 example.com',
  );
  process.exit(2);
}

const file = `dkim-${selector}.pem`;
const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
try {
  writeFileSync(file, privateKey.export({ type: 'pkcs8', format: 'pem' }), { flag: 'wx', mode: 0o600 });
} catch {
  console.error(`${file} exists already (or cannot be written): remove it or choose another selector`);
  process.exit(1);
}

// A TXT record's strings hold at most 255 characters each; resolvers join them.
const record = dkimTxtRecord(privateKey);
const strings = record.match(/.{1,255}/g)?.map((part) => `"${part}"`) ?? [];

console.log(`Private key written to ${file} (readable by you only). Set:

  DKIM_SELECTOR=${selector}
  DKIM_DOMAIN=${domain}
  DKIM_PRIVATE_KEY_FILE=${file}

and publish this DNS record (README.md, "Signed mail: DNS records"):

  ${selector}._domainkey.${domain}. 3600 IN TXT ${strings.join(' ')}
`);
