/**
 * A request body the runtime cannot read (a malformed chunked encoding, a connection cut mid-body)
 * is the client's fault: reading it fails with a DomainError "invalid" that every family renders
 * as its 400, instead of the runtime's own error surfacing as a 500.
 */
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "./env.ts";
import { DomainError } from "../lib/errors.ts";

/** The failure a body read raises. */
export function unreadableBody(cause: unknown): DomainError {
  return new DomainError("invalid", "BAD_REQUEST", "request body could not be read", { cause });
}

/** Wraps the request body so that a read error becomes unreadableBody. */
export const guardBodyReads: MiddlewareHandler<AppEnv> = async (c, next) => {
  const raw = c.req.raw;
  if (!raw.body) return await next();
  const reader = raw.body.getReader();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) controller.close();
        else controller.enqueue(value);
      } catch (err) {
        controller.error(unreadableBody(err));
      }
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
  c.req.raw = new Request(raw, { body, duplex: "half" } as RequestInit);
  await next();
};
