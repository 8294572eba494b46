/**
 * `deno task keys`: prints fresh secrets for a deployment, one `NAME='value'` line each, in the
 * dotenv form `wrangler secret bulk`, Deno Deploy's env import and `--env-file` read:
 * JWT_PRIVATE_JWK (ES256 signing key), KMS_MASTER_KEY (seals wallet keys and webhook secrets),
 * ADMIN_TOKEN (admin API) and METRICS_TOKEN (scrapes only). Keep them out of the repository.
 */
import { generatePrivateJwk } from "../lib/auth/keys.ts";
import { randomToken } from "../lib/crypto/hashing.ts";

/** Fresh deployment secrets by name. */
export async function freshKeys(): Promise<Record<string, string>> {
  return {
    JWT_PRIVATE_JWK: await generatePrivateJwk(),
    KMS_MASTER_KEY: randomToken(32),
    ADMIN_TOKEN: randomToken(24),
    METRICS_TOKEN: randomToken(24),
  };
}

if (import.meta.main) {
  const keys = await freshKeys();
  // Single quotes: dotenv readers take the JSON of the JWK literally.
  console.log(Object.entries(keys).map(([k, v]) => `${k}='${v}'`).join("\n"));
}
