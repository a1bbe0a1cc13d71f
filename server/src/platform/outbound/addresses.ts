/**
 * Which network an address is on, and the operator's `OUTBOUND_ALLOW` list (ADR 0020). Parsing and
 * ranges come from ipaddr.js; this file only decides what counts as public.
 */
import ipaddr from 'ipaddr.js';

export type Address = ipaddr.IPv4 | ipaddr.IPv6;

/**
 * `public`: globally routable unicast. `private`: loopback, RFC 1918, CGNAT (100.64/10) and unique-local
 * IPv6 — what the allow-list word `private` opens. `local`: everything else (link-local and the cloud
 * metadata service, unspecified, broadcast, multicast, reserved, documentation, benchmarking, 6to4,
 * Teredo…), opened only by naming the address or its range.
 */
export type AddressCategory = 'public' | 'private' | 'local';

const PRIVATE_V4 = new Set(['loopback', 'private', 'carrierGradeNat']);
const PRIVATE_V6 = new Set(['loopback', 'uniqueLocal']);
/** IPv6 forms that carry an IPv4 address in their last 32 bits: mapped, translated, NAT64. */
const EMBEDS_V4 = new Set(['ipv4Mapped', 'rfc6145', 'rfc6052']);
/** Only 2000::/3 is global unicast; ipaddr.js calls much of the rest (e.g. IPv4-compatible ::a.b.c.d) unicast. */
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');

/** Parses any spelling ipaddr.js knows (`127.1`, `2130706433`, `0x7f.0.0.1`, `::ffff:7f00:1`…); null if none. */
export function parseAddress(text: string): Address | null {
  const bare = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  if (!ipaddr.isValid(bare)) return null;
  return canonical(ipaddr.parse(bare));
}

/** An IPv6 address that embeds an IPv4 one is judged (and matched) as that IPv4 address. */
function canonical(address: Address): Address {
  if (address.kind() === 'ipv6' && EMBEDS_V4.has(address.range())) {
    const bytes = address.toByteArray();
    return new ipaddr.IPv4(bytes.slice(-4));
  }
  return address;
}

export function categoryOf(address: Address): AddressCategory {
  const range = address.range();
  if (address.kind() === 'ipv4') {
    if (range === 'unicast') return 'public';
    return PRIVATE_V4.has(range) ? 'private' : 'local';
  }
  if (PRIVATE_V6.has(range)) return 'private';
  return range === 'unicast' && address.match(GLOBAL_UNICAST_V6) ? 'public' : 'local';
}

/** One entry of `OUTBOUND_ALLOW`. A rule without a port opens every port. */
export type AllowRule =
  | { kind: 'private' }
  | { kind: 'range'; range: [Address, number]; port?: number }
  | { kind: 'host'; host: string; port?: number };

const HOST_NAME =
  /^(?=.{1,253}$)[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?(\.[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?)*\.?$/;

function parsePort(text: string): number | null {
  if (!/^\d{1,5}$/.test(text)) return null;
  const port = Number(text);
  return port >= 1 && port <= 65535 ? port : null;
}

function single(address: Address): [Address, number] {
  return [address, address.kind() === 'ipv4' ? 32 : 128];
}

/** One entry: `private`, a CIDR, an IP (`[v6]` with a port), or a host name, each with an optional `:port`. */
export function parseAllowRule(entry: string): AllowRule | null {
  const text = entry.trim().toLowerCase();
  if (text === 'private') return { kind: 'private' };
  if (text.includes('/')) {
    try {
      const [address, bits] = ipaddr.parseCIDR(text);
      const base = canonical(address);
      // An IPv4-mapped range is the IPv4 range it maps.
      return { kind: 'range', range: [base, base === address ? bits : Math.max(bits - 96, 0)] };
    } catch {
      return null;
    }
  }
  const bracketed = /^\[([^\]]+)\](?::(.+))?$/.exec(text);
  if (bracketed) {
    const address = ipaddr.IPv6.isValid(bracketed[1]!) ? canonical(ipaddr.parse(bracketed[1]!)) : null;
    const port = bracketed[2] === undefined ? undefined : parsePort(bracketed[2]);
    return address && port !== null ? { kind: 'range', range: single(address), port } : null;
  }
  if (ipaddr.IPv6.isValid(text)) return { kind: 'range', range: single(canonical(ipaddr.parse(text))) };
  const colon = text.lastIndexOf(':');
  const host = colon < 0 ? text : text.slice(0, colon);
  const port = colon < 0 ? undefined : parsePort(text.slice(colon + 1));
  if (port === null) return null;
  if (ipaddr.IPv4.isValidFourPartDecimal(host)) {
    return { kind: 'range', range: single(ipaddr.IPv4.parse(host)), port };
  }
  return HOST_NAME.test(host) && !/^[\d.]+$/.test(host) ? { kind: 'host', host, port } : null;
}

/** The whole variable: comma-separated entries; every malformed entry is named. */
export function parseAllowList(value: string): { rules: AllowRule[]; invalid: string[] } {
  const rules: AllowRule[] = [];
  const invalid: string[] = [];
  for (const entry of value.split(',')) {
    if (!entry.trim()) continue;
    const rule = parseAllowRule(entry);
    if (rule) rules.push(rule);
    else invalid.push(entry.trim());
  }
  return { rules, invalid };
}

/** Whether a connection to `address` for the name `host` (as written in the URL) on `port` may be made. */
export function isPermitted(
  rules: readonly AllowRule[],
  host: string,
  port: number,
  address: Address,
): boolean {
  const category = categoryOf(address);
  if (category === 'public') return true;
  const name = host.toLowerCase().replace(/\.$/, '');
  return rules.some((rule) => {
    if (rule.kind === 'private') return category === 'private';
    if (rule.port !== undefined && rule.port !== port) return false;
    if (rule.kind === 'host') return rule.host.replace(/\.$/, '') === name;
    const [base, bits] = rule.range;
    return base.kind() === address.kind() && address.match(base, bits);
  });
}
