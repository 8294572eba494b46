/**
 * `Idempotency-Key` on the blockchain API's writing endpoints (POST and PATCH under /service/v1
 * and /core/v1, both networks): the same key with the same request answers the first answer
 * again (header `Idempotent-Replayed: true`) without doing it twice; the same key with another
 * request is refused (IDEMPOTENCY_KEY_REUSED); a request that finds its key's first request still
 * running waits up to 10 s for its answer, then is refused (IDEMPOTENCY_KEY_IN_USE). Keys are per
 * app and kept IDEMPOTENCY_TTL_HOURS. See lib/idempotency.ts.
 */
import type { Context, MiddlewareHandler, Next } from "hono";
import type { AppEnv } from "../env.ts";
import { DomainError } from "../../lib/errors.ts";
import {
  claimIdempotencyKey,
  idempotentRequestId,
  releaseIdempotencyKey,
  requestFingerprint,
  type StoredAnswer,
  storeIdempotentAnswer,
} from "../../lib/idempotency.ts";

const KEY = /^[\x21-\x7e]{1,255}$/;
const WAIT_MS = 10_000;

/**
 * The middleware (after authentication: keys belong to the token's app). A request it does not
 * concern (a read, or no key) goes on without an async step of its own.
 */
export const idempotency: MiddlewareHandler<AppEnv> = (c, next) => {
  const method = c.req.method;
  if (method !== "POST" && method !== "PATCH") return next();
  const key = c.req.header("idempotency-key");
  if (key === undefined) return next();
  return keyed(c, next, key);
};

const keyed = async (c: Context<AppEnv>, next: Next, key: string) => {
  if (!KEY.test(key)) {
    throw new DomainError(
      "invalid",
      "IDEMPOTENCY_KEY_INVALID",
      "Idempotency-Key must be 1 to 255 visible ASCII characters",
    );
  }
  const s = c.get("services");
  const appid = c.get("app").appid;
  const body = await c.req.text();
  const fingerprint = await requestFingerprint([
    c.req.method,
    new URL(c.req.url).pathname,
    c.get("network"),
    body,
  ]);
  const q = { appid, key, fingerprint };
  const deadline = Date.now() + WAIT_MS;
  let since: number;
  for (let delay = 25;; delay = Math.min(delay * 2, 250)) {
    const claim = await claimIdempotencyKey(s, q);
    if (claim.kind === "replay") return replay(claim.answer);
    if (claim.kind === "mismatch") {
      throw new DomainError(
        "conflict",
        "IDEMPOTENCY_KEY_REUSED",
        `Idempotency-Key ${key} was used with another request (method, path, x-network or body differ); use a new key for a new request`,
      );
    }
    if (claim.kind === "run") {
      since = claim.since;
      break;
    }
    if (Date.now() > deadline) {
      throw new DomainError(
        "conflict",
        "IDEMPOTENCY_KEY_IN_USE",
        `the first request with Idempotency-Key ${key} is still running; retry later for its answer`,
      );
    }
    await new Promise((r) => setTimeout(r, delay));
  }
  const requestId = await idempotentRequestId(appid, key, since);
  c.set("idempotentRequestId", requestId);
  // A run before this one (its instance died, or it answered 5xx) may have sent the transaction.
  const sent = await sentBefore(c, requestId);
  if (sent) {
    await storeIdempotentAnswer(s, { appid, key, answer: sent });
    return replay(sent);
  }
  try {
    await next();
  } catch (err) {
    await releaseIdempotencyKey(s, { appid, key });
    throw err;
  }
  const res = c.res;
  if (res.status >= 500) {
    // Nothing final to repeat: a retry with the key runs again, and its request id (the one the
    // key stands for) keeps it from sending a second transaction.
    await releaseIdempotencyKey(s, { appid, key });
    return;
  }
  const answer: StoredAnswer = {
    status: res.status,
    contentType: res.headers.get("content-type") ?? "application/json",
    body: await res.clone().text(),
  };
  await storeIdempotentAnswer(s, { appid, key, answer });
};

async function sentBefore(
  c: Parameters<MiddlewareHandler<AppEnv>>[0],
  requestId: string,
): Promise<StoredAnswer | null> {
  const [row] = await c.get("services").db.query<{ tx_hash: string | null; status: string }>(
    "select tx_hash, status from chain_txs where request_id = $1 and appid = $2",
    [requestId, c.get("app").appid],
  );
  if (!row?.tx_hash || row.status === "WAITING") return null;
  const data = { txhash: row.tx_hash, status: "PENDING", requestId };
  return {
    status: 200,
    contentType: "application/json",
    body: JSON.stringify({ code: 0, message: "success", data }),
  };
}

function replay(answer: StoredAnswer): Response {
  return new Response(answer.body, {
    status: answer.status,
    headers: { "content-type": answer.contentType, "idempotent-replayed": "true" },
  });
}
