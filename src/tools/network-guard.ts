/**
 * Address guard of `web_fetch`: classifies IP addresses so the tool only connects to the public
 * internet. Pure (no DNS, no I/O): the caller resolves names and checks every address it got.
 */
import { isIP } from 'node:net';

/**
 * What an IP address is, as far as reaching it from the agent host goes. Only `public` addresses
 * are fetched unless `allow_private_networks` is set.
 */
export type AddressClass =
  | 'public'
  /** 127.0.0.0/8, ::1. */
  | 'loopback'
  /** 10/8, 172.16/12, 192.168/16, fc00::/7 (unique local), fec0::/10 (old site-local). */
  | 'private'
  /** 169.254/16 (including the 169.254.169.254 cloud metadata endpoint), fe80::/10. */
  | 'link-local'
  /** 0.0.0.0/8, ::. Connecting to 0.0.0.0 reaches the local host on Linux. */
  | 'unspecified'
  /** 100.64/10, carrier-grade NAT: the provider's internal network. */
  | 'shared'
  /** 224/4, ff00::/8. */
  | 'multicast'
  /** 255.255.255.255. */
  | 'broadcast'
  /** Documentation, benchmarking, future-use and transition ranges no public page lives on. */
  | 'reserved'
  /** Not an IP address at all. */
  | 'invalid';

interface Range {
  /** Address as bytes; its first `bits` bits are the prefix. */
  readonly prefix: readonly number[];
  readonly bits: number;
  readonly cls: Exclude<AddressClass, 'public' | 'invalid'>;
}

function v4(cidr: string, cls: Range['cls']): Range {
  const [addr = '', bits = '32'] = cidr.split('/');
  return { prefix: addr.split('.').map(Number), bits: Number(bits), cls };
}

function v6(cidr: string, cls: Range['cls']): Range {
  const [addr = '', bits = '128'] = cidr.split('/');
  const bytes = parseIPv6(addr);
  if (bytes === null) throw new Error(`bad IPv6 range ${cidr}`);
  return { prefix: bytes, bits: Number(bits), cls };
}

// Most specific first: the first match wins (255.255.255.255 before 240/4).
const IPV4_RANGES: readonly Range[] = [
  v4('0.0.0.0/8', 'unspecified'),
  v4('10.0.0.0/8', 'private'),
  v4('100.64.0.0/10', 'shared'),
  v4('127.0.0.0/8', 'loopback'),
  v4('169.254.0.0/16', 'link-local'),
  v4('172.16.0.0/12', 'private'),
  v4('192.0.0.0/24', 'reserved'),
  v4('192.0.2.0/24', 'reserved'),
  v4('192.88.99.0/24', 'reserved'),
  v4('192.168.0.0/16', 'private'),
  v4('198.18.0.0/15', 'reserved'),
  v4('198.51.100.0/24', 'reserved'),
  v4('203.0.113.0/24', 'reserved'),
  v4('224.0.0.0/4', 'multicast'),
  v4('255.255.255.255/32', 'broadcast'),
  v4('240.0.0.0/4', 'reserved'),
];

const IPV6_RANGES: readonly Range[] = [
  v6('::/128', 'unspecified'),
  v6('::1/128', 'loopback'),
  // IPv4-compatible (deprecated) and IPv4-translated forms: nothing legitimate uses them.
  v6('::/96', 'reserved'),
  v6('::ffff:0:0:0/96', 'reserved'),
  v6('64:ff9b:1::/48', 'reserved'),
  v6('100::/64', 'reserved'),
  // Teredo embeds an obfuscated IPv4 address we cannot vet; 2001:db8::/32 is documentation.
  v6('2001::/32', 'reserved'),
  v6('2001:db8::/32', 'reserved'),
  v6('fc00::/7', 'private'),
  v6('fe80::/10', 'link-local'),
  v6('fec0::/10', 'private'),
  v6('ff00::/8', 'multicast'),
];

// IPv6 forms that carry an IPv4 address the packets end up at: the embedded address decides.
const IPV4_MAPPED = v6('::ffff:0:0/96', 'reserved');
const NAT64 = v6('64:ff9b::/96', 'reserved');
const SIX_TO_FOUR = v6('2002::/16', 'reserved');

function matches(bytes: readonly number[], range: Range): boolean {
  for (let bit = 0; bit < range.bits; bit += 8) {
    const mask = range.bits - bit >= 8 ? 0xff : (0xff << (8 - (range.bits - bit))) & 0xff;
    if (((bytes[bit / 8] ?? 0) & mask) !== ((range.prefix[bit / 8] ?? 0) & mask)) return false;
  }
  return true;
}

function classifyBytes(bytes: readonly number[], ranges: readonly Range[]): AddressClass {
  return ranges.find((r) => matches(bytes, r))?.cls ?? 'public';
}

function parseIPv4(text: string): number[] | null {
  if (isIP(text) !== 4) return null;
  return text.split('.').map(Number);
}

/** 16 bytes of a textual IPv6 address (zone id ignored), or null when it is not one. */
function parseIPv6(text: string): number[] | null {
  const address = text.split('%')[0] ?? '';
  if (isIP(address) !== 6) return null;
  let groups = address;
  // A dotted-quad tail (::ffff:1.2.3.4) stands for the last two groups.
  const lastColon = groups.lastIndexOf(':');
  const tail = parseIPv4(groups.slice(lastColon + 1));
  if (tail !== null) {
    const [a = 0, b = 0, c = 0, d = 0] = tail;
    groups = `${groups.slice(0, lastColon + 1)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [left = '', right] = groups.split('::');
  const head = left === '' ? [] : left.split(':');
  const rest = right === undefined || right === '' ? [] : right.split(':');
  const zeros = right === undefined ? 0 : 8 - head.length - rest.length;
  const words = [...head, ...Array<string>(zeros).fill('0'), ...rest].map((g) => parseInt(g, 16));
  return words.flatMap((w) => [w >> 8, w & 0xff]);
}

/**
 * Classifies an IP address given as text (`203.0.113.7`, `::1`, `::ffff:127.0.0.1`). IPv4-mapped,
 * NAT64 and 6to4 IPv6 addresses are classified by the IPv4 address they embed, since that is where
 * a connection to them ends up. Anything that is not an IP address is `invalid`.
 */
export function classifyAddress(address: string): AddressClass {
  const ipv4 = parseIPv4(address);
  if (ipv4 !== null) return classifyBytes(ipv4, IPV4_RANGES);
  const bytes = parseIPv6(address);
  if (bytes === null) return 'invalid';
  if (matches(bytes, IPV4_MAPPED) || matches(bytes, NAT64)) return classifyBytes(bytes.slice(12), IPV4_RANGES);
  if (matches(bytes, SIX_TO_FOUR)) return classifyBytes(bytes.slice(2, 6), IPV4_RANGES);
  return classifyBytes(bytes, IPV6_RANGES);
}

/** True when `address` is an IP address on the public internet. */
export function isPublicAddress(address: string): boolean {
  return classifyAddress(address) === 'public';
}

const DESCRIPTIONS: Readonly<Record<AddressClass, string>> = {
  public: 'a public address',
  loopback: 'a loopback address',
  private: 'a private network address',
  'link-local': 'a link-local address (this includes cloud metadata endpoints)',
  unspecified: 'an unspecified address (it reaches the local host)',
  shared: 'a carrier-grade NAT address',
  multicast: 'a multicast address',
  broadcast: 'a broadcast address',
  reserved: 'a reserved address',
  invalid: 'not a valid IP address',
};

/** Words for error messages: "a loopback address", "a private network address", ... */
export function describeAddressClass(cls: AddressClass): string {
  return DESCRIPTIONS[cls];
}
