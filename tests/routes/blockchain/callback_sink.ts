/** A real HTTP receiver for transaction callbacks (the service POSTs to it over loopback). */
import { signatureHeader } from "../../../lib/outbound/mod.ts";

/** One received callback. */
export interface Received {
  body: Record<string, unknown>;
  raw: string;
  signature: string | null;
  /** The Standard Webhooks message id (the same on every retry of one callback). */
  webhookId: string | null;
}

/** Starts a receiver; `status` decides what it answers (default 200). */
export function callbackSink(status: () => number = () => 200) {
  const received: Received[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const raw = await req.text();
    received.push({
      body: JSON.parse(raw),
      raw,
      signature: req.headers.get("x-signature"),
      webhookId: req.headers.get("webhook-id"),
    });
    return new Response("ok", { status: status() });
  });
  return {
    url: `http://127.0.0.1:${server.addr.port}/callback`,
    received,
    close: () => server.shutdown(),
  };
}

/** True when the X-Signature header is the HMAC of the body under the secret. */
export async function signatureValid(secret: string, got: Received): Promise<boolean> {
  const t = Number(/t=(\d+)/.exec(got.signature ?? "")?.[1]);
  if (!Number.isFinite(t)) return false;
  return (await signatureHeader(secret, got.raw, t * 1000)) === got.signature;
}
