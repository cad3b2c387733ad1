import { describe, expect, it } from 'vitest';
import { createAddressPolicy, isPublicAddress, URL_REFUSALS, unreachableUrlReason } from './address-policy';

const BLOCKED = {
  'IPv4 loopback': ['127.0.0.1', '127.255.255.254'],
  'RFC 1918 private': ['10.0.0.1', '172.16.0.1', '172.31.255.255', '192.168.1.1'],
  'link-local and cloud metadata': ['169.254.169.254', 'fe80::1'],
  'carrier-grade NAT': ['100.64.0.1', '100.127.255.255'],
  multicast: ['224.0.0.1', '239.255.255.250', 'ff02::1'],
  unspecified: ['0.0.0.0', '0.1.2.3', '::'],
  broadcast: ['255.255.255.255'],
  'reserved and documentation': [
    '240.0.0.1',
    '192.0.0.8',
    '192.0.2.1',
    '198.18.0.1',
    '198.19.255.255',
    '198.51.100.1',
    '203.0.113.5',
    '2001:db8::1',
  ],
  'IPv6 loopback': ['::1'],
  'unique local and site-local': ['fc00::1', 'fd12:3456::1', 'fec0::1'],
  'IPv4-mapped private': ['::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:10.0.0.1', '::ffff:169.254.169.254'],
  'IPv4-compatible': ['::127.0.0.1', '::10.0.0.1'],
  '6to4 of a private address': ['2002:7f00:1::', '2002:c0a8:0101::1'],
  'NAT64 of a private address': ['64:ff9b::7f00:1', '64:ff9b::a00:1', '64:ff9b:1::808:808'],
  Teredo: ['2001:0:4136:e378:8000:63bf:3fff:fdd2'],
};

describe('isPublicAddress', () => {
  for (const [kind, addresses] of Object.entries(BLOCKED)) {
    it(`refuses ${kind}`, () => {
      for (const address of addresses) expect(isPublicAddress(address), address).toBe(false);
    });
  }

  it('accepts public IPv4 and IPv6, also through mapped, 6to4 and NAT64 forms', () => {
    for (const address of [
      '8.8.8.8',
      '1.1.1.1',
      '2606:4700::1111',
      '::ffff:8.8.8.8',
      '2002:808:808::1',
      '64:ff9b::808:808',
    ])
      expect(isPublicAddress(address), address).toBe(true);
  });

  it('refuses what is not an address', () => {
    expect(isPublicAddress('example.com')).toBe(false);
  });
});

describe('the private-host allow-list', () => {
  const policy = createAddressPolicy(['127.0.0.1', '10.0.0.0/8', 'Intranet.Example.', '[::1]', ' ']);

  it('allows listed IPs, CIDRs and host names, and nothing else private', () => {
    expect(policy.allowsAddress('127.0.0.1')).toBe(true);
    expect(policy.allowsAddress('::ffff:127.0.0.1')).toBe(true);
    expect(policy.allowsAddress('10.200.0.1')).toBe(true);
    expect(policy.allowsAddress('::1')).toBe(true);
    expect(policy.allowsAddress('127.0.0.2')).toBe(false);
    expect(policy.allowsAddress('192.168.0.1')).toBe(false);
    expect(policy.allowsHost('intranet.example')).toBe(true);
    expect(policy.allowsHost('other.example')).toBe(false);
  });
});

describe('unreachableUrlReason: what safe-fetch could never fetch, told without a name lookup', () => {
  const none = createAddressPolicy([]);

  it.each([
    ['not a URL', URL_REFUSALS.notUrl],
    ['javascript:alert(1)', URL_REFUSALS.scheme],
    ['file:///etc/passwd', URL_REFUSALS.scheme],
    ['ftp://example.com/feed', URL_REFUSALS.scheme],
    ['https://user:secret@example.com/feed', URL_REFUSALS.credentials],
    ['http://127.0.0.1/feed', URL_REFUSALS.private],
    ['http://0x7f.1/feed', URL_REFUSALS.private],
    ['http://[::1]/feed', URL_REFUSALS.private],
    ['http://[::ffff:10.0.0.1]/feed', URL_REFUSALS.private],
    ['http://192.168.1.1/rss', URL_REFUSALS.private],
    ['http://169.254.169.254/latest/meta-data', URL_REFUSALS.private],
    ['http://localhost/feed', URL_REFUSALS.private],
    ['http://feeds.localhost/feed', URL_REFUSALS.private],
    ['http://nas.local/feed', URL_REFUSALS.private],
    ['http://wiki.internal/feed', URL_REFUSALS.private],
    ['http://router.home.arpa/feed', URL_REFUSALS.private],
    ['http://intranet/feed', URL_REFUSALS.private],
    ['https://example.com:22/feed', URL_REFUSALS.port],
    ['http://8.8.8.8:6379/', URL_REFUSALS.port],
  ])('%s: %s', (url, reason) => {
    expect(unreachableUrlReason(url, none)).toBe(reason);
  });

  it.each([
    'https://example.com/feed',
    'http://example.com:80/rss',
    'https://8.8.8.8:443/',
    'https://[2606:4700::1111]/',
  ])('lets %s through', (url) => {
    expect(unreachableUrlReason(url, none)).toBeUndefined();
  });

  it('lets allow-listed hosts through on any port (FETCH_ALLOW_PRIVATE_HOSTS)', () => {
    const policy = createAddressPolicy(['127.0.0.1', 'intranet']);
    expect(unreachableUrlReason('http://127.0.0.1:4010/feeds/rss2.xml', policy)).toBeUndefined();
    expect(unreachableUrlReason('http://intranet:8080/feed', policy)).toBeUndefined();
    expect(unreachableUrlReason('http://127.0.0.2/feed', policy)).toBe(URL_REFUSALS.private);
  });
});
