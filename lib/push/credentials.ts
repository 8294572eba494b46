/**
 * Provider credentials per app: an FCM service account and an APNs token-auth key. The secret
 * parts are sealed under the master key (bound to `<appid>:fcm` / `<appid>:apns`) and never
 * returned; reads show presence, the public identifiers and a key fingerprint (RFC 7638 JWK
 * thumbprint of the public key), plus the reason sends stopped when the provider refused them.
 */
import { calculateJwkThumbprint, exportJWK, importPKCS8 } from "jose";
import { z } from "zod";
import type { Services } from "../services.ts";
import { invalid, notFound } from "../errors.ts";
import { deriveSealKey, openText, sealText } from "../crypto/seal.ts";

const PURPOSE = "push-credential";
/** Google's OAuth token endpoint, used when a service account names none. */
export const GOOGLE_TOKEN_URI = "https://oauth2.googleapis.com/token";

const ServiceAccount = z.object({
  type: z.literal("service_account", {
    message: 'must be "service_account" (a Google service-account key file)',
  }),
  project_id: z.string().trim().min(1).max(100),
  private_key_id: z.string().trim().min(1).max(100).optional(),
  private_key: z.string().min(1).max(8192),
  client_email: z.string().trim().email().max(320),
  token_uri: z.string().url().refine((u) => /^https?:\/\//.test(u), "must be an http(s) URL")
    .optional(),
}).passthrough();

/** The body of PUT /admin/v1/push/apps/{appid}/credentials. */
export const CredentialsBody = z.object({
  fcm: z.object({ serviceAccount: ServiceAccount }).optional(),
  apns: z.object({
    teamId: z.string().regex(/^[A-Z0-9]{10}$/, "must be the 10-character Apple team id"),
    keyId: z.string().regex(/^[A-Z0-9]{10}$/, "must be the 10-character key id of the .p8 key"),
    privateKey: z.string().min(1).max(4096),
    bundleId: z.string().trim().min(1).max(255).regex(
      /^[A-Za-z0-9.\-]+$/,
      "must be the app's bundle id (letters, digits, dots, hyphens)",
    ),
    production: z.boolean(),
  }).optional(),
}).refine((b) => b.fcm || b.apns, "give fcm, apns or both");

/** What PUT stores and what senders open. */
export interface FcmSecret {
  projectId: string;
  clientEmail: string;
  privateKeyId?: string;
  privateKey: string;
  tokenUri: string;
}

/** The APNs token-auth key. */
export interface ApnsSecret {
  teamId: string;
  keyId: string;
  privateKey: string;
  bundleId: string;
  production: boolean;
}

/** An app's opened credentials, as the senders use them. */
export interface AppCredentials {
  appid: string;
  /** Changes whenever the credentials are replaced (caches key on it). */
  version: string;
  fcm: FcmSecret | null;
  apns: ApnsSecret | null;
  fcmError: string | null;
  apnsError: string | null;
}

/** What GET answers: never a secret. */
export interface CredentialsView {
  appid: string;
  fcm: {
    configured: true;
    projectId: string;
    clientEmail: string;
    fingerprint: string;
    error: { reason: string; at: string } | null;
  } | null;
  apns: {
    configured: true;
    teamId: string;
    keyId: string;
    bundleId: string;
    production: boolean;
    fingerprint: string;
    error: { reason: string; at: string } | null;
  } | null;
  updatedAt: string;
}

/** Imports a PEM private key for an algorithm; returns the public key's thumbprint or throws. */
async function fingerprintOf(pem: string, alg: "RS256" | "ES256", field: string) {
  let key: CryptoKey;
  try {
    key = await importPKCS8(pem.replace(/\\n/g, "\n").trim(), alg, { extractable: true });
  } catch {
    throw invalid(
      alg === "RS256"
        ? `${field} must be an RSA private key in PKCS#8 PEM ("-----BEGIN PRIVATE KEY-----")`
        : `${field} must be a P-256 (ES256) private key in PKCS#8 PEM (the .p8 file from Apple)`,
      "CREDENTIAL_INVALID",
    );
  }
  const jwk = await exportJWK(key);
  // Base64url without padding: 4 characters carry 3 bytes; 2048 bits are 256 bytes.
  if (alg === "RS256" && Math.floor((jwk.n?.length ?? 0) * 3 / 4) < 256) {
    throw invalid(`${field} must be an RSA key of at least 2048 bits`, "CREDENTIAL_INVALID");
  }

  const { d: _d, p: _p, q: _q, dp: _dp, dq: _dq, qi: _qi, ...pub } = jwk;
  return await calculateJwkThumbprint(pub);
}

type Row = {
  appid: string;
  fcm_sealed: string | null;
  fcm_project_id: string | null;
  fcm_client_email: string | null;
  fcm_fingerprint: string | null;
  fcm_error: string | null;
  fcm_error_at: Date | null;
  apns_sealed: string | null;
  apns_team_id: string | null;
  apns_key_id: string | null;
  apns_bundle_id: string | null;
  apns_production: boolean | null;
  apns_fingerprint: string | null;
  apns_error: string | null;
  apns_error_at: Date | null;
  updated_at: Date;
};

function view(row: Row): CredentialsView {
  const err = (reason: string | null, at: Date | null) =>
    reason ? { reason, at: (at ?? new Date(0)).toISOString() } : null;
  return {
    appid: row.appid,
    fcm: row.fcm_sealed
      ? {
        configured: true,
        projectId: row.fcm_project_id!,
        clientEmail: row.fcm_client_email!,
        fingerprint: row.fcm_fingerprint!,
        error: err(row.fcm_error, row.fcm_error_at),
      }
      : null,
    apns: row.apns_sealed
      ? {
        configured: true,
        teamId: row.apns_team_id!,
        keyId: row.apns_key_id!,
        bundleId: row.apns_bundle_id!,
        production: row.apns_production!,
        fingerprint: row.apns_fingerprint!,
        error: err(row.apns_error, row.apns_error_at),
      }
      : null,
    updatedAt: row.updated_at.toISOString(),
  };
}

async function sealKey(services: Services) {
  return await deriveSealKey(services.secrets.kmsMasterKey, PURPOSE);
}

async function gameOfApp(services: Services, appid: string): Promise<number> {
  const [app] = await services.db.query<{ game_index: number }>(
    "select game_index from apps where appid = $1",
    [appid],
  );
  if (!app) throw notFound(`app ${appid} not found`, "APP_NOT_FOUND");
  return app.game_index;
}

/**
 * Stores the given provider credentials of an app (a provider not given keeps what it had) and
 * clears that provider's stopped state; answers the view.
 */
export async function putCredentials(
  services: Services,
  appid: string,
  body: z.infer<typeof CredentialsBody>,
): Promise<CredentialsView> {
  const gameIndex = await gameOfApp(services, appid);
  const key = await sealKey(services);
  let fcm: unknown[] = [null, null, null, null];
  if (body.fcm) {
    const sa = body.fcm.serviceAccount;
    const fingerprint = await fingerprintOf(
      sa.private_key,
      "RS256",
      "fcm.serviceAccount.private_key",
    );
    const secret: FcmSecret = {
      projectId: sa.project_id,
      clientEmail: sa.client_email,
      privateKeyId: sa.private_key_id,
      privateKey: sa.private_key.replace(/\\n/g, "\n"),
      tokenUri: sa.token_uri ?? GOOGLE_TOKEN_URI,
    };
    fcm = [
      await sealText(key, `${appid}:fcm`, JSON.stringify(secret)),
      sa.project_id,
      sa.client_email,
      fingerprint,
    ];
  }
  let apns: unknown[] = [null, null, null, null, null, null];
  if (body.apns) {
    const a = body.apns;
    const fingerprint = await fingerprintOf(a.privateKey, "ES256", "apns.privateKey");
    const secret: ApnsSecret = { ...a, privateKey: a.privateKey.replace(/\\n/g, "\n") };
    apns = [
      await sealText(key, `${appid}:apns`, JSON.stringify(secret)),
      a.teamId,
      a.keyId,
      a.bundleId,
      a.production,
      fingerprint,
    ];
  }
  const [row] = await services.db.query<Row>(
    `insert into push_credentials (appid, game_index,
       fcm_sealed, fcm_project_id, fcm_client_email, fcm_fingerprint,
       apns_sealed, apns_team_id, apns_key_id, apns_bundle_id, apns_production, apns_fingerprint)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
     on conflict (appid) do update set
       fcm_sealed = coalesce(excluded.fcm_sealed, push_credentials.fcm_sealed),
       fcm_project_id = coalesce(excluded.fcm_project_id, push_credentials.fcm_project_id),
       fcm_client_email = coalesce(excluded.fcm_client_email, push_credentials.fcm_client_email),
       fcm_fingerprint = coalesce(excluded.fcm_fingerprint, push_credentials.fcm_fingerprint),
       fcm_error = case when $3::text is null then push_credentials.fcm_error end,
       fcm_error_at = case when $3::text is null then push_credentials.fcm_error_at end,
       apns_sealed = coalesce(excluded.apns_sealed, push_credentials.apns_sealed),
       apns_team_id = coalesce(excluded.apns_team_id, push_credentials.apns_team_id),
       apns_key_id = coalesce(excluded.apns_key_id, push_credentials.apns_key_id),
       apns_bundle_id = coalesce(excluded.apns_bundle_id, push_credentials.apns_bundle_id),
       apns_production = coalesce(excluded.apns_production, push_credentials.apns_production),
       apns_fingerprint = coalesce(excluded.apns_fingerprint, push_credentials.apns_fingerprint),
       apns_error = case when $7::text is null then push_credentials.apns_error end,
       apns_error_at = case when $7::text is null then push_credentials.apns_error_at end,
       updated_at = now()
     returning *`,
    [appid, gameIndex, ...fcm, ...apns],
  );
  return view(row);
}

/** The app's credentials view; 404 when none are stored. */
export async function getCredentials(services: Services, appid: string): Promise<CredentialsView> {
  await gameOfApp(services, appid);
  const [row] = await services.db.query<Row>(
    "select * from push_credentials where appid = $1",
    [appid],
  );
  if (!row) {
    throw notFound(`app ${appid} has no push credentials`, "PUSH_CREDENTIALS_NOT_FOUND");
  }
  return view(row);
}

/** Deletes an app's credentials (one provider or both); its devices go to the configured sink. */
export async function deleteCredentials(
  services: Services,
  appid: string,
  provider: "fcm" | "apns" | "all",
): Promise<void> {
  await gameOfApp(services, appid);
  const sql = provider === "all"
    ? "delete from push_credentials where appid = $1 returning appid"
    : `update push_credentials set ${provider}_sealed = null, ${provider}_error = null,
         ${provider}_error_at = null, updated_at = now() where appid = $1 returning appid`;
  const rows = await services.db.query(sql, [appid]);
  if (rows.length === 0) {
    throw notFound(`app ${appid} has no push credentials`, "PUSH_CREDENTIALS_NOT_FOUND");
  }
  if (provider !== "all") {
    await services.db.query(
      "delete from push_credentials where appid = $1 and fcm_sealed is null and apns_sealed is null",
      [appid],
    );
  }
}

/** Opens the credentials of the given apps (those that have any), for the senders. */
export async function openCredentials(
  services: Services,
  appids: string[],
): Promise<Map<string, AppCredentials>> {
  const rows = await services.db.query<Row>(
    `select * from push_credentials
     where appid in (select jsonb_array_elements_text($1::jsonb))`,
    [appids],
  );
  const key = await sealKey(services);
  const out = new Map<string, AppCredentials>();
  for (const row of rows) {
    out.set(row.appid, {
      appid: row.appid,
      version: row.updated_at.toISOString(),
      fcm: row.fcm_sealed
        ? JSON.parse(await openText(key, `${row.appid}:fcm`, row.fcm_sealed))
        : null,
      apns: row.apns_sealed
        ? JSON.parse(await openText(key, `${row.appid}:apns`, row.apns_sealed))
        : null,
      fcmError: row.fcm_error,
      apnsError: row.apns_error,
    });
  }
  return out;
}

/** Records why a provider refused an app's credentials; its sends stop until they are replaced. */
export async function stopProvider(
  services: Services,
  appid: string,
  provider: "fcm" | "apns",
  reason: string,
): Promise<void> {
  await services.db.query(
    `update push_credentials set ${provider}_error = $2, ${provider}_error_at = now()
     where appid = $1`,
    [appid, reason.slice(0, 500)],
  );
  services.log.warn("push credentials refused; the app's sends stop", { appid, provider, reason });
}
