import ipaddr from 'ipaddr.js';

type Address = ipaddr.IPv4 | ipaddr.IPv6;
type Cidr = [Address, number];

/**
 * Ranges refused on top of what ipaddr.js's `range()` does not call 'unicast'. Listed again on purpose:
 * the check must not silently weaken if the library reclassifies a range.
 */
const BLOCKED_CIDRS: Cidr[] = [
  '0.0.0.0/8',
  '10.0.0.0/8',
  '100.64.0.0/10',
  '127.0.0.0/8',
  '169.254.0.0/16',
  '172.16.0.0/12',
  '192.0.0.0/24',
  '192.0.2.0/24',
  '192.88.99.0/24',
  '192.168.0.0/16',
  '198.18.0.0/15',
  '198.51.100.0/24',
  '203.0.113.0/24',
  '224.0.0.0/4',
  '240.0.0.0/4',
  '255.255.255.255/32',
  // IPv4-compatible (deprecated), which also covers :: and ::1.
  '::/96',
  '64:ff9b:1::/48',
  '100::/64',
  '2001::/32',
  '2001:db8::/32',
  'fc00::/7',
  'fe80::/10',
  'fec0::/10',
  'ff00::/8',
].map((cidr) => ipaddr.parseCIDR(cidr));

function inBlockedCidr(address: Address): boolean {
  return BLOCKED_CIDRS.some(([range, bits]) => range.kind() === address.kind() && address.match(range, bits));
}

/** The IPv4 address an IPv6 transition address carries (mapped, NAT64, 6to4), if any. */
function embeddedIPv4(address: ipaddr.IPv6): ipaddr.IPv4 | undefined {
  const range = address.range();
  const bytes = address.toByteArray();
  if (range === 'ipv4Mapped' || range === 'rfc6145' || range === 'rfc6052')
    return new ipaddr.IPv4(bytes.slice(12, 16));
  if (range === '6to4') return new ipaddr.IPv4(bytes.slice(2, 6));
  return undefined;
}

/** True for addresses on the public internet only: never loopback, private, link-local, reserved… */
export function isPublicAddress(ip: string): boolean {
  if (!ipaddr.isValid(ip)) return false;
  const address = ipaddr.parse(ip);
  if (inBlockedCidr(address)) return false;
  if (address.kind() === 'ipv6') {
    const v4 = embeddedIPv4(address as ipaddr.IPv6);
    if (v4) return isPublicAddress(v4.toString());
  }
  return address.range() === 'unicast';
}

export interface AddressPolicy {
  /** The host is allow-listed by name: whatever it resolves to may be reached. */
  allowsHost(hostname: string): boolean;
  /** The address is public, or allow-listed as an IP or inside an allow-listed CIDR. */
  allowsAddress(ip: string): boolean;
  /**
   * The host is allow-listed by name, or every address it resolved to is allow-listed (not merely public):
   * only these may be reached on a port other than 80 and 443 (the fake providers, an intranet service).
   */
  allowsAnyPort(hostname: string, ips: string[]): boolean;
}

/** Without brackets, lower case, no trailing dot: the form URL hostnames and allow-list entries share. */
function canonicalHost(hostname: string): string {
  return hostname
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase();
}

/** `allowPrivateHosts` entries: hostnames ('intranet.example'), IPs ('127.0.0.1', '::1') or CIDRs ('10.0.0.0/8'). */
export function createAddressPolicy(allowPrivateHosts: string[]): AddressPolicy {
  const hosts = new Set<string>();
  const cidrs: Cidr[] = [];
  for (const raw of allowPrivateHosts) {
    const entry = canonicalHost(raw.trim());
    if (!entry) continue;
    if (ipaddr.isValidCIDR(entry)) cidrs.push(ipaddr.parseCIDR(entry));
    else if (ipaddr.isValid(entry)) {
      const address = ipaddr.process(entry);
      cidrs.push([address, address.kind() === 'ipv4' ? 32 : 128]);
    } else hosts.add(entry);
  }
  const allowsHost = (hostname: string) => hosts.has(canonicalHost(hostname));
  const isAllowListed = (ip: string) => {
    if (!ipaddr.isValid(ip)) return false;
    // ::ffff:127.0.0.1 is 127.0.0.1 for the allow-list as well as for the block.
    const address = ipaddr.process(ip);
    return cidrs.some(([range, bits]) => range.kind() === address.kind() && address.match(range, bits));
  };
  return {
    allowsHost,
    allowsAddress: (ip) => isPublicAddress(ip) || isAllowListed(ip),
    allowsAnyPort: (hostname, ips) => allowsHost(hostname) || (ips.length > 0 && ips.every(isAllowListed)),
  };
}

/** Names that never lead to the public internet (RFC 6761, 6762, 8375, and the usual intranet suffixes). */
const PRIVATE_NAME = /(?:^|\.)(?:localhost|localdomain|local|internal|intranet|lan|home\.arpa)$/i;
/**
 * The web's ports. Anything else (SSH, databases, mail, admin consoles) is no feed or API a user may name;
 * only allow-listed hosts (the fake providers in tests, an intranet service) are reached on other ports.
 */
export const WEB_PORTS = new Set([80, 443]);
export const URL_REFUSALS = {
  notUrl: 'This is not a valid web address',
  scheme: 'Only http and https feeds can be added',
  credentials: 'A feed address cannot carry a user name or password',
  private: 'Private, local and reserved network addresses cannot be reached',
  port: 'Only the web ports 80 and 443 can be reached',
} as const;

/**
 * Why safe-fetch could never fetch `raw` for a user, told without a name lookup (for lists of addresses
 * a user hands in, such as an OPML file, where a lookup per feed would be slow and tell nothing new);
 * undefined when it may be fetched. A name that resolves to a private address passes here and is
 * refused when it is fetched, as for any feed.
 */
export function unreachableUrlReason(raw: string, policy: AddressPolicy): string | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return URL_REFUSALS.notUrl;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return URL_REFUSALS.scheme;
  if (url.username || url.password) return URL_REFUSALS.credentials;
  const host = canonicalHost(url.hostname);
  if (!host) return URL_REFUSALS.notUrl;
  const isAddress = ipaddr.isValid(host);
  if (isAddress ? !policy.allowsAddress(host) : !policy.allowsHost(host) && isPrivateName(host)) {
    return URL_REFUSALS.private;
  }
  const port = url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
  if (!WEB_PORTS.has(port) && !policy.allowsAnyPort(host, isAddress ? [host] : [])) {
    return URL_REFUSALS.port;
  }
  return undefined;
}

/** `localhost`, `printer.local`, `wiki.internal`, or a single label (`intranet`) the local resolver completes. */
const isPrivateName = (host: string) => PRIVATE_NAME.test(host) || !host.includes('.');
