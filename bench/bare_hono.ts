/**
 * The baseline of the HTTP load runs: a bare Hono app answering GET /healthz, in its own process
 * like the service. `deno run -A bench/bare_hono.ts <port> [framed]`
 *
 * `framed` adds what any service with request ids pays before its own work: one async middleware
 * that sets an `X-Request-Id` (a random UUID) on the response. (The bare app's handler answers
 * synchronously, which lets Deno write the response without a promise turn; with a middleware
 * the answer is a promise, and a second response header leaves Deno's single-header fast path.)
 */
import { Hono } from "hono";

const app = new Hono();
if (Deno.args[1] === "framed") {
  app.use("*", async (c, next) => {
    await next();
    c.res.headers.set("X-Request-Id", crypto.randomUUID());
  });
}
app.get("/healthz", (c) => c.json({ status: "ok" }));
Deno.serve({
  hostname: "127.0.0.1",
  port: Number(Deno.args[0]),
  onListen: () => console.log("ready"),
}, app.fetch);
