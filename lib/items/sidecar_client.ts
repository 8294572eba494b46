/**
 * Item socket through the Node sidecar (sidecar/): POST {host, port, apihash, body, timeoutMs} to
 * `${SIDECAR_URL}/v1/exchange` with the shared token; the sidecar frames the packet and dials.
 */
import {
  type ItemSocket,
  SOCKET_FAILURE_REASONS,
  SocketFailure,
  type SocketFailureReason,
} from "./socket.ts";

const REASONS = new Set<string>(SOCKET_FAILURE_REASONS);

/** Creates a socket that exchanges through the sidecar at `url`. */
export function createSidecarSocket(
  options: { url: string; token: string; fetch?: typeof fetch },
): ItemSocket {
  const doFetch = options.fetch ?? fetch;
  const endpoint = options.url.replace(/\/+$/, "") + "/v1/exchange";
  return {
    kind: "sidecar",
    async exchange(req) {
      const ctrl = new AbortController();
      // The sidecar enforces the exchange timeout; ours only guards a hung sidecar.
      const timer = setTimeout(() => ctrl.abort(), req.timeoutMs + 2_000);
      let res: Response;
      let text: string;
      try {
        res = await doFetch(endpoint, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            authorization: `Bearer ${options.token}`,
          },
          body: JSON.stringify(req),
          signal: ctrl.signal,
        });
        text = await res.text();
      } catch (err) {
        throw new SocketFailure(
          `sidecar unreachable: ${(err as Error).message}`,
          "unavailable",
          { cause: err },
        );
      } finally {
        clearTimeout(timer);
      }
      let answer: {
        ok?: boolean;
        response?: unknown;
        reason?: string;
        message?: string;
      };
      try {
        answer = JSON.parse(text);
      } catch {
        throw new SocketFailure(
          `sidecar answered ${res.status} without JSON`,
          "unavailable",
        );
      }
      if (res.ok && answer.ok === true && typeof answer.response === "string") {
        return answer.response;
      }
      const reason =
        (REASONS.has(answer.reason ?? "") ? answer.reason : "unavailable") as SocketFailureReason;
      throw new SocketFailure(
        answer.message ?? `sidecar answered ${res.status}`,
        reason,
      );
    },
  };
}
