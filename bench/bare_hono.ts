/**
 * The baseline of the HTTP load runs: a bare Hono app answering GET /healthz, in its own process
 * like the service. `deno run -A bench/bare_hono.ts <port>`
 */
import { Hono } from "hono";

const app = new Hono();
app.get("/healthz", (c) => c.json({ status: "ok" }));
Deno.serve({
  hostname: "127.0.0.1",
  port: Number(Deno.args[0]),
  onListen: () => console.log("ready"),
}, app.fetch);
