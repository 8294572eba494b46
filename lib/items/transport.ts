/**
 * Sends one item body to a game server over its transport (HTTP POST with the Apihash header, or
 * the TCP packet through the item socket) and classifies the reply by the spec's code table.
 */
import type { Services } from "../services.ts";
import { apihashHex } from "../crypto/apihash.ts";
import { OutboundFailure, OutboundRefused } from "../outbound/mod.ts";
import type { ItemEndpoint } from "./endpoints.ts";
import { SocketFailure } from "./socket.ts";

/** The attempt produced no usable reply (timeout, connection, refused target). */
export class TransportFailure extends Error {
  override name = "TransportFailure";
}

/** Sends the exact body and returns the game server's reply text. */
export async function sendItemBody(
  services: Services,
  req: { endpoint: ItemEndpoint; body: string; timeoutMs: number },
): Promise<string> {
  const { endpoint, body, timeoutMs } = req;
  const apihash = await apihashHex(endpoint.vendorWord, body);
  if (endpoint.transport === "http") {
    try {
      const res = await services.outbound.send({
        url: endpoint.url,
        method: "POST",
        headers: {
          "content-type": "application/json; charset=utf-8",
          Apihash: apihash,
        },
        body: new TextEncoder().encode(body),
        timeoutMs,
        retries: 0,
        purpose: "item",
      });
      return res.text;
    } catch (err) {
      if (err instanceof OutboundRefused || err instanceof OutboundFailure) {
        throw new TransportFailure(err.message);
      }
      throw err;
    }
  }
  try {
    await services.outbound.assertPublicHost(endpoint.host);
  } catch (err) {
    if (err instanceof OutboundRefused) throw new TransportFailure(err.message);
    throw err;
  }
  try {
    return await services.itemSocket.exchange({
      host: endpoint.host,
      port: endpoint.port,
      apihash,
      body,
      timeoutMs,
    });
  } catch (err) {
    if (err instanceof SocketFailure) {
      throw new TransportFailure(`tcp ${err.reason}: ${err.message}`);
    }
    throw err;
  }
}

/** What a reply means for the request. */
export type ReplyOutcome =
  | { kind: "delivered"; code: number; message: string }
  | { kind: "failed"; code: number; message: string; suspect: boolean }
  | { kind: "retry"; code: number | null; message: string };

const PERMANENT = new Set([
  40001,
  40002,
  40003,
  40004,
  40005,
  40006,
  50001,
  50005,
]);

/** Reads `code` and `message` from a reply; null when either is missing (codes may be strings). */
export function readReply(
  text: string,
): { code: number; message: string } | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof parsed !== "object" || parsed === null) return null;
  const { code, message } = parsed as { code?: unknown; message?: unknown };
  const numeric = typeof code === "number"
    ? code
    : typeof code === "string" && /^\d+$/.test(code.trim())
    ? Number(code)
    : NaN;
  if (!Number.isInteger(numeric) || typeof message !== "string") return null;
  return { code: numeric, message };
}

/** Maps a reply to delivered, failed (permanent) or retry. */
export function classifyReply(text: string): ReplyOutcome {
  const reply = readReply(text);
  if (!reply) {
    return {
      kind: "retry",
      code: null,
      message: `reply without code and message: ${text.slice(0, 200)}`,
    };
  }
  if (reply.code === 20000 || reply.code === 20001) {
    return { kind: "delivered", ...reply };
  }
  if (PERMANENT.has(reply.code)) {
    return { kind: "failed", ...reply, suspect: reply.code === 40002 };
  }
  // 50004 (database error) and codes outside the table may pass: try again later.
  return { kind: "retry", ...reply };
}
