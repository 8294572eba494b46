/**
 * Health probe of item endpoints (spec rule 4): every five minutes, two probes in a row with the
 * request record's fields empty. A reply holding both `code` and `message` (any code) is
 * healthy. The endpoint is marked unhealthy only when both probes of a round fail, so one lost
 * packet does not hold deliveries back; deliveries to an unhealthy endpoint wait, never drop.
 */
import type { Services } from "../services.ts";
import { type ItemEndpoint, openItemEndpoint, type StoredEndpoint } from "./endpoints.ts";
import { probeRecordBody } from "./record.ts";
import { readReply, sendItemBody } from "./transport.ts";
import { storableOrNull } from "../db/storable_text.ts";

/** Time between probe rounds of one endpoint. */
export const PROBE_INTERVAL_MS = 5 * 60_000;
/** Probes per round. */
export const PROBES_PER_ROUND = 2;
/** Days of probe results kept per endpoint (the console's health history). */
export const PROBE_HISTORY_DAYS = 7;

/** The result of one probe round. */
export interface ProbeResult {
  gameIndex: number;
  healthy: boolean;
  error: string | null;
}

/** Runs one probe round against an endpoint (no state is written). */
export async function probeEndpoint(
  services: Services,
  endpoint: ItemEndpoint,
  options: { timeoutMs?: number } = {},
): Promise<ProbeResult> {
  const timeoutMs = options.timeoutMs ??
    services.config.ITEM_ATTEMPT_TIMEOUT_MS;
  const body = probeRecordBody();
  let error: string | null = null;
  for (let i = 0; i < PROBES_PER_ROUND; i++) {
    try {
      const text = await sendItemBody(services, { endpoint, body, timeoutMs });
      if (readReply(text)) {
        return { gameIndex: endpoint.gameIndex, healthy: true, error: null };
      }
      error = `reply without code and message: ${text.slice(0, 200)}`;
    } catch (err) {
      error = (err as Error).message;
    }
  }
  return { gameIndex: endpoint.gameIndex, healthy: false, error };
}

/**
 * Claims endpoints whose probe is due (moving their next probe five minutes on in the same
 * statement, so two instances never probe one endpoint together), probes them and stores the
 * state. Returns the results.
 */
export async function probeDueEndpoints(
  services: Services,
  options: { gameIndex?: number; timeoutMs?: number } = {},
): Promise<ProbeResult[]> {
  const nowMs = services.clock.now();
  const rows = await services.db.query<StoredEndpoint>(
    `update item_endpoints set probe_due_at = $2
      where game_index in (
        select game_index from item_endpoints
         where probe_due_at <= $1 and ($3::int is null or game_index = $3)
         order by probe_due_at limit 50
         for update skip locked)
      returning game_index, transport, url, host, port, vendor_word`,
    [
      new Date(nowMs),
      new Date(nowMs + PROBE_INTERVAL_MS),
      options.gameIndex ?? null,
    ],
  );
  const masterKey = services.secrets.kmsMasterKey;
  const results = await Promise.all(
    rows.map(async (r) =>
      probeEndpoint(services, await openItemEndpoint(masterKey, r), {
        timeoutMs: options.timeoutMs,
      })
    ),
  );
  if (results.length > 0) {
    // The state and its history are written by one statement; history older than
    // PROBE_HISTORY_DAYS is dropped for the probed games on the way.
    await services.db.query(
      `with x as (
         select * from jsonb_to_recordset($1::jsonb)
           as x(game_index int, healthy boolean, error text)),
       h as (
         insert into item_endpoint_probes (game_index, healthy, error, probed_at)
         select game_index, healthy, error, $2 from x),
       old as (
         delete from item_endpoint_probes
          where game_index in (select game_index from x)
            and probed_at < $2::timestamptz - make_interval(days => ${PROBE_HISTORY_DAYS}))
       update item_endpoints e set healthy = x.healthy, last_probe_error = x.error,
         last_probe_at = $2
         from x where e.game_index = x.game_index`,
      [
        results.map((r) => ({
          game_index: r.gameIndex,
          healthy: r.healthy,
          error: storableOrNull(r.error, 500),
        })),
        new Date(services.clock.now()),
      ],
    );
  }
  return results;
}

/** Probes one game's endpoint now (the console's "probe now"); null when it has none. */
export async function probeEndpointNow(
  services: Services,
  gameIndex: number,
): Promise<ProbeResult | null> {
  const rows = await services.db.query(
    "update item_endpoints set probe_due_at = $2 where game_index = $1 returning 1",
    [gameIndex, new Date(services.clock.now())],
  );
  if (rows.length === 0) return null;
  const [result] = await probeDueEndpoints(services, { gameIndex });
  return result ?? null;
}
