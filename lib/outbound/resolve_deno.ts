/**
 * Host-name resolution for the outbound guard on the Deno server (Deno-only: loaded by main.ts
 * with a computed specifier so Workers bundles never include it; Cloudflare's egress cannot reach
 * private networks anyway).
 */
import type { HostResolver } from "./mod.ts";

/** Resolves A and AAAA records with Deno's resolver. */
export function createDenoResolver(): HostResolver {
  return async (hostname) => {
    const answers = await Promise.allSettled([
      Deno.resolveDns(hostname, "A"),
      Deno.resolveDns(hostname, "AAAA"),
    ]);
    const addresses = answers.flatMap((a) => a.status === "fulfilled" ? a.value : []);
    if (addresses.length === 0) throw new Error(`no address for ${hostname}`);
    return addresses;
  };
}
