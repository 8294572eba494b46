/** A webhook receiver on loopback and a transaction callback made due, for the webhook tests. */
import { testEnv } from "../../harness.ts";
import { chainTrackerJob } from "../../../lib/chain/tracker_job.ts";

/** One message the receiver got. */
export interface Delivery {
  raw: string;
  headers: Record<string, string>;
}

/** A loopback server that keeps every message it receives (dispose to stop it). */
export function receiver() {
  const got: Delivery[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    got.push({ raw: await req.text(), headers: Object.fromEntries(req.headers) });
    return new Response(null, { status: 204 });
  });
  return {
    url: `http://127.0.0.1:${server.addr.port}/hook`,
    got,
    [Symbol.asyncDispose]: () => server.shutdown(),
  };
}

/**
 * Records a settled transaction of the game whose callback is due and runs the tracker once, so
 * the callback is sent to `url`; returns the request id.
 */
export async function dueCallback(gameIndex: number, appid: string, url: string) {
  const { services } = await testEnv();
  const requestId = crypto.randomUUID();
  const now = new Date(services.clock.now());
  await services.db.query(
    `insert into chain_txs (request_id, appid, game_index, network, chain_id, player_id, tx_type,
       status, from_address, contract, tx_hash, request_params, callback_url, callback_state,
       callback_next_at, created_at, updated_at)
     values ($1, $2, $3, 'polygon', 31337, '7', 'MINT', 'SUCCESS', '0x01', '0x02', $4, '{}', $5,
       'due', $6, $6, $6)`,
    [requestId, appid, gameIndex, `0x${requestId.replaceAll("-", "")}`, url, now],
  );
  await chainTrackerJob.run(services, services.clock.now());
  return requestId;
}
