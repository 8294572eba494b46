/**
 * Who sent a request: the client's address and whether it came over HTTPS, for every runtime.
 *
 * - On Deno the connection's peer address (Deno.serve's handler info) is the client. A forwarding
 *   header (`X-Forwarded-For`, `X-Forwarded-Proto`) is believed only when that peer is one of
 *   TRUSTED_PROXIES (a comma list of addresses and CIDR ranges): the client is then the nearest
 *   address in `X-Forwarded-For`, read from the right, that is not itself a trusted proxy. Without
 *   the setting no header is believed, so a client cannot pick the address it is counted under.
 * - On Workers there is no peer address; Cloudflare's edge sets `CF-Connecting-IP`, which a client
 *   cannot override there.
 *
 * Code only: the caller hands in what its framework knows (no Hono here).
 */
import ipaddr from "ipaddr.js";

/** What a request says about where it came from. */
export interface RequestOrigin {
  /** The connection's peer address on Deno; undefined where the runtime has none (Workers). */
  peer: string | undefined;
  /** A request header, by lower-case name. */
  header(name: string): string | undefined;
  /** The request URL as the runtime saw it. */
  url: string;
}

type Range = [ipaddr.IPv4 | ipaddr.IPv6, number];

/** A parsed IP address, or null for anything that is not a plain IPv4 or IPv6 address. */
function parseAddress(text: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  const bare = text.trim().replace(/^\[(.*)\]$/, "$1");
  if (ipaddr.IPv4.isValidFourPartDecimal(bare)) return ipaddr.IPv4.parse(bare);
  if (bare.includes(":") && ipaddr.IPv6.isValid(bare)) {
    // An IPv4-mapped IPv6 peer (::ffff:a.b.c.d) is the IPv4 address.
    return ipaddr.process(bare);
  }
  return null;
}

const parsedLists = new Map<string, Range[]>();

/**
 * Parses TRUSTED_PROXIES (addresses and CIDR ranges, comma-separated); throws an Error naming the
 * first entry that is neither.
 */
export function parseTrustedProxies(list: string | undefined): Range[] {
  if (!list) return [];
  const known = parsedLists.get(list);
  if (known) return known;
  const ranges: Range[] = [];
  for (const raw of list.split(",")) {
    const entry = raw.trim();
    if (!entry) continue;
    const [addressText, bitsText, extra] = entry.split("/");
    const address = extra === undefined ? parseAddress(addressText) : null;
    const max = address?.kind() === "ipv4" ? 32 : 128;
    const bits = bitsText === undefined ? max : /^\d{1,3}$/.test(bitsText) ? Number(bitsText) : -1;
    if (!address || bits < 0 || bits > max) {
      throw new Error(`TRUSTED_PROXIES: ${entry.slice(0, 60)} is not an IP address or CIDR range`);
    }
    ranges.push([address, bits]);
  }
  parsedLists.set(list, ranges);
  return ranges;
}

function trusted(address: ipaddr.IPv4 | ipaddr.IPv6, ranges: Range[]): boolean {
  return ranges.some(([base, bits]) => base.kind() === address.kind() && address.match(base, bits));
}

/** True when the request came through a peer that TRUSTED_PROXIES names. */
function fromTrustedProxy(origin: RequestOrigin, trustedProxies: string | undefined): boolean {
  if (origin.peer === undefined || !trustedProxies) return false;
  const peer = parseAddress(origin.peer);
  return peer !== null && trusted(peer, parseTrustedProxies(trustedProxies));
}

/**
 * The client's address (see the module comment); "unknown" only where the runtime reports none
 * (in-process test requests).
 */
export function clientAddress(origin: RequestOrigin, trustedProxies: string | undefined): string {
  if (origin.peer === undefined) return origin.header("cf-connecting-ip")?.trim() || "unknown";
  if (!fromTrustedProxy(origin, trustedProxies)) return origin.peer;
  const ranges = parseTrustedProxies(trustedProxies);
  const hops = (origin.header("x-forwarded-for") ?? "").split(",").map((h) => h.trim());
  // From the right: each trusted proxy vouches for the hop before it, up to the first outsider.
  let client = parseAddress(origin.peer)!;
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = parseAddress(hops[i]);
    // Not an address: nothing before it is vouched for; the last good hop is the client.
    if (!hop) break;
    client = hop;
    if (!trusted(hop, ranges)) break;
  }
  return client.toString();
}

/**
 * True when the client reached the service over HTTPS: the request URL says so (Workers, Deno
 * serving TLS), or a trusted proxy's `X-Forwarded-Proto` does.
 */
export function cameOverHttps(origin: RequestOrigin, trustedProxies: string | undefined): boolean {
  if (origin.url.startsWith("https:")) return true;
  const proto = origin.header("x-forwarded-proto");
  if (!proto) return false;
  return proto.split(",")[0].trim().toLowerCase() === "https" &&
    fromTrustedProxy(origin, trustedProxies);
}
