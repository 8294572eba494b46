/**
 * The item socket: one TCP request/response exchange with a game server. On Deno the server can
 * dial itself (socket_deno.ts, loaded only there); everywhere else the Node sidecar dials for us.
 */

/** One exchange: the exact body (ASCII JSON) and its Apihash go to host:port. */
export interface SocketExchange {
  host: string;
  port: number;
  apihash: string;
  body: string;
  timeoutMs: number;
}

/** Why an exchange produced no response body. */
export const SOCKET_FAILURE_REASONS = [
  "timeout",
  "connect",
  "closed",
  "too_large",
  "bad_packet",
  "unavailable",
] as const;

/** One of SOCKET_FAILURE_REASONS. */
export type SocketFailureReason = typeof SOCKET_FAILURE_REASONS[number];

/** An exchange that failed before a complete response packet arrived. */
export class SocketFailure extends Error {
  override name = "SocketFailure";
  constructor(
    message: string,
    readonly reason: SocketFailureReason,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

/** Sends one request packet and returns the response packet's body text. */
export interface ItemSocket {
  readonly kind: "direct" | "sidecar" | "none";
  exchange(req: SocketExchange): Promise<string>;
}

/** The socket used when neither a direct dialer nor a sidecar is configured. */
export const missingItemSocket: ItemSocket = {
  kind: "none",
  exchange() {
    return Promise.reject(
      new SocketFailure(
        "no TCP transport: set SIDECAR_URL and SIDECAR_TOKEN (or run the Deno server)",
        "unavailable",
      ),
    );
  },
};
