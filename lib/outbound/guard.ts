/**
 * Refuses outbound calls to loopback, private, link-local, shared, multicast and other
 * non-public addresses, in every spelling a URL parser may produce (IPv4-mapped, IPv4-translated,
 * IPv4-compatible and NAT64 IPv6 forms included). Addresses are classified by ipaddr.js. Host names are not resolved here (edge runtimes cannot); names
 * that are internal by convention (localhost, *.localhost, *.internal, *.local) are refused.
 */
import ipaddr from "ipaddr.js";
import { DomainError } from "../errors.ts";

/** The only IPv4 range (in ipaddr.js's classification) that is a public destination. */
function publicIpv4(address: ipaddr.IPv4): boolean {
  return address.range() === "unicast";
}

/**
 * Public IPv6: global unicast, or an IPv4-mapped (::ffff:a.b.c.d) or well-known NAT64
 * (64:ff9b::/96) form of a public IPv4 address. Every other special range is refused, among them
 * the IPv4-translated ::ffff:0:0:0/96, local-use NAT64 64:ff9b:1::/48, 6to4, Teredo, unique and
 * link local, documentation and the deprecated IPv4-compatible ::a.b.c.d.
 */
function publicIpv6(address: ipaddr.IPv6): boolean {
  const range = address.range();
  if (range === "unicast") {
    // ipaddr.js calls the deprecated IPv4-compatible ::/96 form unicast.
    return !address.parts.slice(0, 6).every((part) => part === 0);
  }
  if (range === "ipv4Mapped") return publicIpv4(address.toIPv4Address());
  if (range === "rfc6052" && address.match(ipaddr.IPv6.parse("64:ff9b::"), 96)) {
    const [, , , , , , hi, lo] = address.parts;
    return publicIpv4(new ipaddr.IPv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]));
  }
  return false;
}

/** True when the host names a non-public address or an internal-by-convention name. */
export function isPrivateHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, "").replace(/\.$/, "");
  if (host === "" || host === "localhost") return true;
  if (/\.(localhost|internal|local)$/.test(host)) return true;
  if (ipaddr.IPv4.isValidFourPartDecimal(host)) return !publicIpv4(ipaddr.IPv4.parse(host));
  if (host.includes(":")) {
    const bare = host.replace(/%.*$/, ""); // a zone id only ever names a local interface
    if (bare !== host || !ipaddr.IPv6.isValid(bare)) return true; // unparseable IPv6 is refused
    return !publicIpv6(ipaddr.IPv6.parse(bare));
  }
  // Other all-numeric spellings (e.g. 2130706433, 0x7f.1) are refused rather than interpreted.
  if (/^[0-9.]+$/.test(host) || /^0x/.test(host)) return true;
  return false;
}

/** Throws unless the URL is http(s) and (when private targets are not allowed) public. */
export function assertOutboundUrl(raw: string, allowPrivate: boolean): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new OutboundRefused(`not a valid URL: ${raw}`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new OutboundRefused(`only http and https URLs are allowed`);
  }
  if (url.username || url.password) throw new OutboundRefused("URLs with credentials are refused");
  if (!allowPrivate && isPrivateHost(url.hostname)) {
    throw new OutboundRefused(`private or loopback address refused: ${url.hostname}`);
  }
  return url;
}

/** The target of an outbound call is not allowed. */
export class OutboundRefused extends Error {
  override name = "OutboundRefused";
}

/**
 * Refuses, at registration, a target that the guard would refuse when used: the URL (or the TCP
 * host) must be public unless private targets are allowed, and a host name must not resolve to a
 * private address where the runtime can resolve names. Throws DomainError invalid naming `field`,
 * with `code` (TARGET_REFUSED unless the API has its own, e.g. the chain API's callback code).
 */
export async function assertRegistrableTarget(
  outbound: { assertPublicHost(hostname: string): Promise<void> },
  target: { url: string } | { host: string },
  options: { allowPrivate: boolean; field: string; code?: string },
): Promise<void> {
  try {
    const hostname = "url" in target
      ? assertOutboundUrl(target.url, options.allowPrivate).hostname
      : target.host;
    if (!("url" in target) && !options.allowPrivate && isPrivateHost(hostname)) {
      throw new OutboundRefused(`private or loopback address refused: ${hostname}`);
    }
    await outbound.assertPublicHost(hostname);
  } catch (err) {
    if (err instanceof OutboundRefused) {
      throw new DomainError(
        "invalid",
        options.code ?? "TARGET_REFUSED",
        `${options.field}: ${err.message}`,
      );
    }
    throw err;
  }
}
