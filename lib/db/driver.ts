/**
 * Which SQL adapter a DATABASE_URL uses (DATABASE_DRIVER): `neon` is Neon's HTTP driver, `tcp`
 * postgres.js over TCP, and `auto` picks Neon's HTTP driver for a Neon host (*.neon.tech) or when
 * NEON_FETCH_ENDPOINT is set, TCP otherwise. On Workers a Hyperdrive binding named HYPERDRIVE
 * wins over both (main.ts turns it into DATABASE_URL with DATABASE_DRIVER=tcp).
 */
import type { Config } from "../config.ts";
import type { Sql } from "./port.ts";
import { openNeon } from "./neon.ts";
import { openTcp, type RequestScope } from "./tcp.ts";

type DriverSettings = Pick<Config, "DATABASE_DRIVER" | "NEON_FETCH_ENDPOINT">;

/** The adapter the rule picks for a connection string. */
export function databaseDriver(url: string, config: DriverSettings): "neon" | "tcp" {
  if (config.DATABASE_DRIVER !== "auto") return config.DATABASE_DRIVER;
  if (config.NEON_FETCH_ENDPOINT) return "neon";
  let host = "";
  try {
    host = new URL(url).hostname.toLowerCase();
  } catch { /* not a URL: TCP reports the connection string as unusable */ }
  return host === "neon.tech" || host.endsWith(".neon.tech") ? "neon" : "tcp";
}

/** Opens DATABASE_URL with the adapter the rule picks; `scope` makes TCP clients per request. */
export function openDatabase(
  url: string,
  config: DriverSettings & Pick<Config, "DATABASE_POOL_MAX">,
  options: { scope?: RequestScope } = {},
): Sql {
  return databaseDriver(url, config) === "neon"
    ? openNeon(url, { fetchEndpoint: config.NEON_FETCH_ENDPOINT })
    : openTcp(url, { max: config.DATABASE_POOL_MAX, scope: options.scope });
}
