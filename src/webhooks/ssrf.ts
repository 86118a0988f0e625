import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';

/**
 * SSRF rule for webhook targets (docs/api.md, "Webhooks"): only http/https, and every address the host
 * resolves to must be a public unicast address. Checked at registration and again before each delivery,
 * and the delivery connects to the address vetted here (see http-delivery.ts), so a DNS answer that
 * changes between the check and the connection (DNS rebinding) cannot redirect it.
 */

interface Range {
  version: 4 | 6;
  bytes: number[];
  prefix: number;
  kind: string;
}

function range(cidr: string, kind: string): Range {
  const [address, prefix] = cidr.split('/');
  const parsed = parseIp(address)!;
  return { version: parsed.version, bytes: [...parsed.bytes], prefix: Number(prefix), kind };
}

/** Everything that is not a public unicast address (IANA special-purpose registries). */
const FORBIDDEN: Range[] = [
  range('0.0.0.0/8', 'unspecified'),
  range('10.0.0.0/8', 'private'),
  range('100.64.0.0/10', 'shared address space (CGNAT)'),
  range('127.0.0.0/8', 'loopback'),
  range('169.254.0.0/16', 'link-local (cloud metadata)'),
  range('172.16.0.0/12', 'private'),
  range('192.0.0.0/24', 'IETF protocol assignments'),
  range('192.0.2.0/24', 'documentation'),
  range('192.88.99.0/24', '6to4 relay anycast'),
  range('192.168.0.0/16', 'private'),
  range('198.18.0.0/15', 'benchmarking'),
  range('198.51.100.0/24', 'documentation'),
  range('203.0.113.0/24', 'documentation'),
  range('224.0.0.0/4', 'multicast'),
  range('240.0.0.0/4', 'reserved'),
  range('::/128', 'unspecified'),
  range('::1/128', 'loopback'),
  range('::/96', 'IPv4-compatible (deprecated)'),
  range('64:ff9b:1::/48', 'NAT64 (local use)'),
  range('100::/64', 'discard-only'),
  range('2001::/32', 'Teredo'),
  range('2001:2::/48', 'benchmarking'),
  range('2001:db8::/32', 'documentation'),
  range('2001:10::/28', 'ORCHID'),
  range('2001:20::/28', 'ORCHIDv2'),
  range('3fff::/20', 'documentation'),
  range('5f00::/16', 'segment routing'),
  range('fc00::/7', 'unique local (private)'),
  range('fe80::/10', 'link-local'),
  range('fec0::/10', 'site-local (deprecated)'),
  range('ff00::/8', 'multicast'),
];

const GLOBAL_UNICAST_V6 = range('2000::/3', 'global unicast');

export interface ParsedIp {
  version: 4 | 6;
  bytes: Uint8Array;
}

/** Parses a literal IPv4 or IPv6 address (brackets and a zone id allowed); undefined for anything else. */
export function parseIp(text: string): ParsedIp | undefined {
  const address = text.replace(/^\[(.*)\]$/, '$1').replace(/%.*$/, '');
  const version = isIP(address);
  if (version === 4) return { version: 4, bytes: Uint8Array.from(address.split('.').map(Number)) };
  if (version !== 6) return undefined;
  let text6 = address.toLowerCase();
  // A dotted IPv4 tail (::ffff:127.0.0.1) becomes two hex groups.
  const tail = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text6);
  if (tail) {
    const [a, b, c, d] = tail.slice(1).map(Number);
    text6 = text6.slice(0, tail.index) + `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, rest] = text6.split('::');
  const groupsOf = (part: string | undefined) => (part ? part.split(':').map((g) => parseInt(g, 16)) : []);
  const front = groupsOf(head);
  const back = rest === undefined ? [] : groupsOf(rest);
  const groups = rest === undefined ? front : [...front, ...new Array<number>(8 - front.length - back.length).fill(0), ...back];
  const bytes = new Uint8Array(16);
  groups.forEach((g, i) => {
    bytes[i * 2] = g >> 8;
    bytes[i * 2 + 1] = g & 0xff;
  });
  return { version: 6, bytes };
}

function inRange(ip: ParsedIp, r: Range): boolean {
  if (ip.version !== r.version) return false;
  for (let bit = 0; bit < r.prefix; bit += 8) {
    const take = Math.min(8, r.prefix - bit);
    const mask = (0xff << (8 - take)) & 0xff;
    if ((ip.bytes[bit / 8] & mask) !== (r.bytes[bit / 8] & mask)) return false;
  }
  return true;
}

const v4 = (bytes: Uint8Array, offset: number): ParsedIp => ({ version: 4, bytes: bytes.slice(offset, offset + 4) });

/** IPv6 forms that carry an IPv4 address which is the real destination: mapped, NAT64, 6to4. */
function embeddedIpv4(ip: ParsedIp): ParsedIp | undefined {
  if (ip.version !== 6) return undefined;
  const b = ip.bytes;
  const zeros = (from: number, to: number) => b.slice(from, to).every((x) => x === 0);
  if (zeros(0, 10) && b[10] === 0xff && b[11] === 0xff) return v4(b, 12); // ::ffff:a.b.c.d
  if (b[0] === 0x00 && b[1] === 0x64 && b[2] === 0xff && b[3] === 0x9b && zeros(4, 12)) return v4(b, 12); // 64:ff9b::a.b.c.d
  if (b[0] === 0x20 && b[1] === 0x02) return v4(b, 2); // 2002:aabb:ccdd::
  return undefined;
}

/**
 * Why an address may not be a webhook target (`loopback`, `private`, `link-local (cloud metadata)`, …),
 * or undefined for a public unicast address. Anything that does not parse as an IP address is refused.
 */
export function forbiddenAddressKind(address: string): string | undefined {
  const ip = parseIp(address);
  if (!ip) return 'not an IP address';
  const inner = embeddedIpv4(ip);
  if (inner) return forbiddenAddressKind([...inner.bytes].join('.'));
  const kind = FORBIDDEN.find((r) => inRange(ip, r))?.kind;
  if (kind) return kind;
  // Only 2000::/3 is allocated as global unicast; the rest of the IPv6 space is reserved.
  if (ip.version === 6 && !inRange(ip, GLOBAL_UNICAST_V6)) return 'reserved';
  return undefined;
}

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

const RESOLVE_TIMEOUT_MS = 5_000;

export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolver: Resolver = async (hostname) =>
  (await dnsLookup(hostname, { all: true, verbatim: true })).map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));

/** The host of an endpoint refused, and why (kept for logs and the delivery record, not shown at registration). */
export class TargetRefusedError extends Error {
  constructor(
    readonly host: string,
    readonly reason: string,
  ) {
    super(`target refused: ${host} ${reason}`);
    this.name = 'TargetRefusedError';
  }
}

/** `[::1]` → `::1`: URL keeps the brackets of an IPv6 literal in `hostname`. */
export function bareHostname(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}

/**
 * Resolves the endpoint's host and returns its addresses, refusing the whole host if any of them is not
 * public (an attacker could otherwise mix a public and a private record). With `allowPrivate` every
 * address is accepted (local development and tests), but the host must still resolve.
 */
export async function resolveTarget(url: URL, options: { allowPrivate: boolean; resolve?: Resolver }): Promise<ResolvedAddress[]> {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TargetRefusedError(url.host, `uses ${url.protocol} (only http and https)`);
  const host = bareHostname(url);
  const literal = isIP(host);
  let addresses: ResolvedAddress[];
  if (literal) addresses = [{ address: host, family: literal === 6 ? 6 : 4 }];
  else {
    let timer: NodeJS.Timeout | undefined;
    try {
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(Object.assign(new Error('DNS timeout'), { code: 'ETIMEOUT' })), RESOLVE_TIMEOUT_MS);
      });
      addresses = await Promise.race([(options.resolve ?? systemResolver)(host), timeout]);
    } catch (error) {
      throw new TargetRefusedError(host, `does not resolve (${(error as { code?: string }).code ?? (error as Error).message})`);
    } finally {
      clearTimeout(timer);
    }
    if (addresses.length === 0) throw new TargetRefusedError(host, 'does not resolve');
  }
  if (!options.allowPrivate) {
    for (const { address } of addresses) {
      const kind = forbiddenAddressKind(address);
      if (kind) throw new TargetRefusedError(host, `resolves to a ${kind} address (${address})`);
    }
  }
  return addresses;
}
