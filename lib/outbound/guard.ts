/** Refuses outbound calls to loopback, private, link-local and other internal addresses. */

function ipv4(host: string): number[] | null {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  if (!m) return null;
  const parts = m.slice(1).map(Number);
  return parts.every((p) => p <= 255) ? parts : null;
}

/** True when the host names a loopback, private, link-local, CGNAT or unspecified address. */
export function isPrivateHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, "").replace(/\.$/, "");
  if (host === "localhost" || host.endsWith(".localhost") || host.endsWith(".internal")) {
    return true;
  }
  const v4 = ipv4(host);
  if (v4) {
    const [a, b] = v4;
    return a === 0 || a === 10 || a === 127 || (a === 169 && b === 254) ||
      (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) ||
      (a === 100 && b >= 64 && b <= 127) || a >= 224;
  }
  if (host.includes(":")) {
    if (host === "::" || host === "::1") return true;
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(host);
    if (mapped) return isPrivateHost(mapped[1]);
    return /^(fc|fd|fe8|fe9|fea|feb)/.test(host);
  }
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
