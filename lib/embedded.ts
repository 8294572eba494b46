/**
 * Embedded dev mode on Deno: PGlite persisted under DATA_DIR and secrets generated once and kept
 * there. Imported dynamically by main.ts only when nothing is configured, so Workers never load it.
 */
import type { Config } from "./config.ts";
import type { RuntimeSecrets } from "./services.ts";
import type { Sql } from "./db/port.ts";
import { openPglite } from "./db/pglite.ts";
import { generatePrivateJwk } from "./auth/keys.ts";
import { randomToken } from "./crypto/hashing.ts";

async function readOrCreate(path: string, make: () => Promise<string> | string): Promise<string> {
  try {
    return (await Deno.readTextFile(path)).trim();
  } catch (err) {
    if (!(err instanceof Deno.errors.NotFound)) throw err;
  }
  const value = await make();
  await Deno.writeTextFile(path, value + "\n", { mode: 0o600, createNew: true }).catch(
    (err) => {
      // Another process created it first: use theirs.
      if (!(err instanceof Deno.errors.AlreadyExists)) throw err;
    },
  );
  return (await Deno.readTextFile(path)).trim();
}

/** Loads configured secrets, generating and persisting any missing one under DATA_DIR. */
export async function embeddedSecrets(config: Config): Promise<RuntimeSecrets> {
  await Deno.mkdir(config.DATA_DIR, { recursive: true });
  const dir = config.DATA_DIR;
  return {
    adminToken: config.ADMIN_TOKEN ??
      await readOrCreate(`${dir}/admin_token`, () => randomToken(24)),
    jwtPrivateJwk: config.JWT_PRIVATE_JWK ??
      await readOrCreate(`${dir}/jwt_private.jwk.json`, generatePrivateJwk),
    kmsMasterKey: config.KMS_MASTER_KEY ??
      await readOrCreate(`${dir}/kms_master_key`, () => randomToken(32)),
    webhookSecret: config.WEBHOOK_SIGNING_SECRET ??
      await readOrCreate(`${dir}/webhook_secret`, () => randomToken(32)),
  };
}

/** Opens the embedded database under DATA_DIR/pg. */
export async function embeddedDatabase(config: Config): Promise<Sql> {
  await Deno.mkdir(`${config.DATA_DIR}/pg`, { recursive: true });
  return await openPglite(`${config.DATA_DIR}/pg`);
}
