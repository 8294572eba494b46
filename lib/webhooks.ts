/**
 * Standard Webhooks (https://www.standardwebhooks.com): every callback and webhook the service
 * originates carries `webhook-id`, `webhook-timestamp` and `webhook-signature: v1,<base64
 * HMAC-SHA256(secret, id.timestamp.body)>`, signed with its game's secret. A game's secret is
 * created with the game (the creation answer shows it once; a game from before that gets one at its
 * first message) and replaced by a rotation (the admin API shows the new one once); after a
 * rotation the previous secret signs too, for WEBHOOK_ROTATION_GRACE_SECONDS. The console can
 * reveal the current secret again on an explicit, logged request.
 */
import { Webhook } from "standardwebhooks";
import type { Services } from "./services.ts";
import { deriveSealKey, openText, sealText } from "./crypto/seal.ts";
import { randomBytes, toBase64 } from "./crypto/hashing.ts";

/** A fresh secret in the Standard Webhooks form `whsec_<base64 of 32 random bytes>`. */
export function generateWebhookSecret(): string {
  return `whsec_${toBase64(randomBytes(32))}`;
}

function sealKey(s: Services) {
  return deriveSealKey(s.secrets.kmsMasterKey, "webhook-secret");
}

const owner = (gameIndex: number) => `game:${gameIndex}`;

/** A new game with its webhook secret: the answer is the only time the secret is shown. */
export async function createGameWithSecret(
  s: Services,
  name: string,
): Promise<{ gameIndex: number; name: string; webhookSecret: string }> {
  // The game's index seals the secret, so it is taken first; game and secret then land together.
  const [{ game_index: gameIndex }] = await s.db.query<{ game_index: number }>(
    "select nextval(pg_get_serial_sequence('games', 'game_index'))::int as game_index",
  );
  const secret = generateWebhookSecret();
  const sealed = await sealText(await sealKey(s), owner(gameIndex), secret);
  const [games] = await s.db.transaction([
    {
      text: "insert into games (game_index, name) values ($1, $2) returning name",
      params: [gameIndex, name],
    },
    {
      text:
        "insert into webhook_secrets (game_index, secret_sealed, rotated_at) values ($1, $2, $3)",
      params: [gameIndex, sealed, new Date(s.clock.now())],
    },
  ]);
  return { gameIndex, name: String(games[0].name), webhookSecret: secret };
}

/** When a game's secret was made, and until when a replaced one still signs; never the secret. */
export interface WebhookSecretState {
  /** False for a game whose first message has not been signed yet (its secret comes then). */
  exists: boolean;
  /** When the current secret was created (with the game) or last rotated. */
  rotatedAt: string | null;
  previousValidUntil: string | null;
}

/** The state of a game's secret, without the secret. */
export async function webhookSecretState(
  s: Services,
  gameIndex: number,
): Promise<WebhookSecretState> {
  const [row] = await s.db.query<{ rotated_at: Date; previous_until: Date | null }>(
    "select rotated_at, previous_until from webhook_secrets where game_index = $1",
    [gameIndex],
  );
  const until = row?.previous_until && row.previous_until.getTime() > s.clock.now()
    ? row.previous_until.toISOString()
    : null;
  return {
    exists: Boolean(row),
    rotatedAt: row?.rotated_at.toISOString() ?? null,
    previousValidUntil: until,
  };
}

/** The secret that signs a game's messages now (made if the game has none yet), with its state. */
export async function revealWebhookSecret(
  s: Services,
  gameIndex: number,
): Promise<WebhookSecretState & { secret: string }> {
  const [secret] = await signingSecrets(s, gameIndex);
  return { secret, ...await webhookSecretState(s, gameIndex) };
}

/** Replaces a game's secret and returns the new one (the only time it is shown). */
export async function rotateWebhookSecret(
  s: Services,
  gameIndex: number,
): Promise<{ secret: string; previousValidUntil: string | null }> {
  const secret = generateWebhookSecret();
  const key = await sealKey(s);
  const nowMs = s.clock.now();
  const until = new Date(nowMs + s.config.WEBHOOK_ROTATION_GRACE_SECONDS * 1000);
  const rows = await s.db.query<{ previous_until: Date | null }>(
    `insert into webhook_secrets (game_index, secret_sealed, rotated_at)
     values ($1, $2, $3)
     on conflict (game_index) do update set
       previous_sealed = webhook_secrets.secret_sealed, previous_until = $4,
       secret_sealed = excluded.secret_sealed, rotated_at = excluded.rotated_at
     returning previous_until`,
    [gameIndex, await sealText(key, owner(gameIndex), secret), new Date(nowMs), until],
  );
  return { secret, previousValidUntil: rows[0]?.previous_until?.toISOString() ?? null };
}

/** The secrets that sign a game's messages now: the current one, then a previous one in grace. */
export async function signingSecrets(s: Services, gameIndex: number): Promise<string[]> {
  const select = () =>
    s.db.query<{ secret_sealed: string; previous_sealed: string | null; previous_until: Date }>(
      `select secret_sealed, previous_sealed, previous_until from webhook_secrets
        where game_index = $1`,
      [gameIndex],
    );
  let rows = await select();
  if (rows.length === 0) {
    const key = await sealKey(s);
    await s.db.query(
      `insert into webhook_secrets (game_index, secret_sealed, rotated_at) values ($1, $2, $3)
       on conflict (game_index) do nothing`,
      [
        gameIndex,
        await sealText(key, owner(gameIndex), generateWebhookSecret()),
        new Date(s.clock.now()),
      ],
    );
    rows = await select();
  }
  const key = await sealKey(s);
  const row = rows[0];
  const out = [await openText(key, owner(gameIndex), row.secret_sealed)];
  if (row.previous_sealed && row.previous_until.getTime() > s.clock.now()) {
    out.push(await openText(key, owner(gameIndex), row.previous_sealed));
  }
  return out;
}

/** The three Standard Webhooks headers for a body, signed by every given secret. */
export function standardWebhookHeaders(
  secrets: string[],
  input: { id: string; nowMs: number; body: string | Uint8Array },
): Record<string, string> {
  const body = typeof input.body === "string" ? input.body : new TextDecoder().decode(input.body);
  const at = new Date(input.nowMs);
  const signatures = secrets.map((secret) => new Webhook(secret).sign(input.id, at, body));
  return {
    "webhook-id": input.id,
    "webhook-timestamp": String(Math.floor(input.nowMs / 1000)),
    "webhook-signature": signatures.join(" "),
  };
}

/**
 * A `sign` hook for an outbound request: each attempt is signed at its own time with the
 * game's secrets, under the message id receivers deduplicate on.
 */
export async function webhookSigner(s: Services, gameIndex: number, id: string) {
  const secrets = await signingSecrets(s, gameIndex);
  // The timestamp is the wall-clock time of sending: receivers compare it with their own clock.
  return (body: string | Uint8Array) =>
    Promise.resolve(standardWebhookHeaders(secrets, { id, nowMs: Date.now(), body }));
}
