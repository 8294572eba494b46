/**
 * Refuses outbound calls to loopback, private, link-local, shared, multicast and other
 * non-public addresses, in every spelling a URL parser may produce (IPv4-mapped, IPv4-compatible
 * and NAT64 IPv6 forms included). Host names are not resolved here (edge runtimes cannot); names
 * that are internal by convention (localhost, *.localhost, *.internal, *.local) are refused.
 */

/** Parses dotted-quad IPv4 (each part decimal 0..255); null when not one. */
function parseIpv4(host: string): number[] | null {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  if (!m) return null;
  const parts = m.slice(1).map(Number);
  return parts.every((p) => p <= 255) ? parts : null;
}

/** Parses an IPv6 address into eight 16-bit groups; null when not one. */
export function parseIpv6(host: string): number[] | null {
  let text = host;
  // A trailing dotted quad (e.g. ::ffff:127.0.0.1) becomes two groups.
  const tail = /^(.*:)(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (tail) {
    const v4 = parseIpv4(tail[2]);
    if (!v4) return null;
    text = `${tail[1]}${((v4[0] << 8) | v4[1]).toString(16)}:${
      ((v4[2] << 8) | v4[3]).toString(16)
    }`;
  }
  const halves = text.split("::");
  if (halves.length > 2) return null;
  const head = halves[0] ? halves[0].split(":") : [];
  const rest = halves.length === 2 && halves[1] ? halves[1].split(":") : [];
  if (halves.length === 1 && head.length !== 8) return null;
  const missing = 8 - head.length - rest.length;
  if (halves.length === 2 && missing < 1) return null;
  const groups = [...head, ...Array(halves.length === 2 ? missing : 0).fill("0"), ...rest];
  if (groups.length !== 8 || groups.some((g) => !/^[0-9a-f]{1,4}$/.test(g))) return null;
  return groups.map((g) => parseInt(g, 16));
}

function privateIpv4([a, b, c]: number[]): boolean {
  return a === 0 || // "this" network
    a === 10 || a === 127 ||
    (a === 100 && b >= 64 && b <= 127) || // carrier-grade NAT
    (a === 169 && b === 254) || // link-local, cloud metadata
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 0 && c === 0) || // IETF protocol assignments
    (a === 192 && b === 0 && c === 2) || // documentation
    (a === 192 && b === 168) ||
    (a === 198 && (b === 18 || b === 19)) || // benchmarking
    (a === 198 && b === 51 && c === 100) || (a === 203 && b === 0 && c === 113) ||
    a >= 224; // multicast and reserved
}

function privateIpv6(g: number[]): boolean {
  const embeddedV4 = [g[6] >> 8, g[6] & 0xff, g[7] >> 8, g[7] & 0xff];
  const zeroPrefix = (n: number) => g.slice(0, n).every((x) => x === 0);
  if (zeroPrefix(8)) return true; // ::
  if (zeroPrefix(7) && g[7] === 1) return true; // ::1
  if (zeroPrefix(5) && g[5] === 0xffff) return privateIpv4(embeddedV4); // ::ffff:a.b.c.d
  if (zeroPrefix(6)) return true; // deprecated IPv4-compatible ::a.b.c.d
  if (g[0] === 0x64 && g[1] === 0xff9b) return privateIpv4(embeddedV4); // NAT64
  if (g[0] === 0x2002) return privateIpv4([g[1] >> 8, g[1] & 0xff, g[2] >> 8, g[2] & 0xff]); // 6to4
  if ((g[0] & 0xfe00) === 0xfc00) return true; // unique local fc00::/7
  if ((g[0] & 0xffc0) === 0xfe80) return true; // link-local fe80::/10
  if ((g[0] & 0xffc0) === 0xfec0) return true; // site-local (deprecated)
  if ((g[0] & 0xff00) === 0xff00) return true; // multicast
  if (g[0] === 0x2001 && g[1] === 0x0db8) return true; // documentation
  return false;
}

/** True when the host names a non-public address or an internal-by-convention name. */
export function isPrivateHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, "").replace(/\.$/, "");
  if (host === "" || host === "localhost") return true;
  if (/\.(localhost|internal|local)$/.test(host)) return true;
  const v4 = parseIpv4(host);
  if (v4) return privateIpv4(v4);
  if (host.includes(":")) {
    const v6 = parseIpv6(host.replace(/%.*$/, "")); // drop a zone id
    return v6 === null || privateIpv6(v6); // unparseable IPv6 is refused
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
