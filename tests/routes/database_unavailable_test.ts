/**
 * PostgreSQL that cannot serve now (57P03 starting up or shutting down, 53300 too many
 * connections) answers each family's unavailable envelope, with Retry-After where the family
 * answers 503, on the TCP and the Neon adapter, while /readyz says 503. A stand-in server refuses
 * every connection with the SQLSTATE (tests/lib/db/refusing_postgres.ts).
 */
import assert from "node:assert/strict";
import { ADMIN_TOKEN, seedTenant, testEnv } from "../harness.ts";
import { createApp } from "../../routes/mod.ts";
import type { Sql } from "../../lib/db/port.ts";
import { openTcp } from "../../lib/db/tcp.ts";
import { openNeon } from "../../lib/db/neon.ts";
import { startNeonBridge } from "../../dev/neon_bridge.ts";
import { startRefusingPostgres } from "../lib/db/refusing_postgres.ts";
import { chatBody, chatMessage, textBody } from "./moderation/fixtures.ts";
import { koreanMobile } from "./otp/fixture.ts";

interface Probe {
  family: string;
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: unknown;
  /** The family's answer when its database cannot serve. */
  status: number;
  expected: unknown;
}

async function probes(): Promise<Probe[]> {
  const t = await seedTenant("unavailable game");
  const key = (await t.apiKey(["items", "push", "otp", "cpa"])).apiKey;
  const bearer = { authorization: `bearer ${key}` };
  const json = { "content-type": "application/json" };
  return [
    {
      family: "blockchain",
      method: "POST",
      path: "/v2/auth-token",
      headers: json,
      body: { clientId: t.clientId, clientSecret: t.clientSecret },
      status: 503,
      expected: { code: 5003, message: "database unavailable" },
    },
    {
      family: "items",
      method: "GET",
      path: `/items/v1/requests/tx-${crypto.randomUUID()}`,
      headers: bearer,
      status: 503,
      expected: { code: 5030, message: "database unavailable" },
    },
    {
      family: "cpa",
      method: "POST",
      path: "/api/cpa",
      headers: json,
      body: {
        appid: t.appid,
        vid: "player-1",
        server_id: "kr-1",
        cpa_code: "cpa-x",
        cpa_date: "2026-11-21 09:30:00",
      },
      status: 503,
      expected: {
        result_code: 9,
        result_msg: "database unavailable",
        result_message: "database unavailable",
      },
    },
    {
      family: "push",
      method: "GET",
      path: `/push/devices/${t.appid}/token-${crypto.randomUUID()}`,
      headers: bearer,
      status: 503,
      expected: { error: { reason: "database unavailable" } },
    },
    {
      family: "otp",
      method: "POST",
      path: "/otp/sms",
      headers: { ...bearer, ...json, topic: "topic-x" },
      body: { to: koreanMobile(), toCountryNo: "82" },
      status: 503,
      expected: { error: { code: "SERVICE_UNAVAILABLE", reason: "database unavailable" } },
    },
    {
      family: "admin",
      method: "GET",
      path: "/admin/v1/games",
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      status: 503,
      expected: { error: { code: "DATABASE_UNAVAILABLE", message: "database unavailable" } },
    },
    {
      family: "chat",
      method: "POST",
      path: "/chat/api/v1/send-chat-log",
      headers: json,
      body: chatBody("AAAAAAAAAAAAAAAA", "S".repeat(32), [chatMessage()]),
      // The chat and text detection spec answers 200 with its own code (506 system error).
      status: 200,
      expected: { result: { result_code: "506", result_msg: "database unavailable" } },
    },
    {
      family: "text detection",
      method: "POST",
      path: "/cads2/send-text-data",
      headers: json,
      body: textBody("AAAAAAAAAAAAAAAA", "S".repeat(32), ["hello"]),
      status: 200,
      expected: { result: { result_code: "506", result_text: "System Error", result_array: [] } },
    },
    {
      family: "health",
      method: "GET",
      path: "/readyz",
      status: 503,
      expected: { status: "unavailable", checks: { database: "unreachable", kv: "ok" } },
    },
  ];
}

async function answer(db: Sql, p: Probe) {
  const { services } = await testEnv();
  const app = createApp({
    ...services,
    db,
    config: { ...services.config, ITEM_STATE_CACHE_MS: 0 },
  });
  const res = await app.request(p.path, {
    method: p.method,
    headers: p.headers,
    body: p.body === undefined ? undefined : JSON.stringify(p.body),
  });
  const text = await res.text();
  return {
    status: res.status,
    retryAfter: res.headers.get("retry-after"),
    body: text ? JSON.parse(text) : null,
  };
}

for (
  const [code, message] of [["57P03", "the database system is starting up"], [
    "53300",
    "sorry, too many clients already",
  ]]
) {
  Deno.test(`${code} (${message}): every family answers unavailable, on TCP and Neon`, async () => {
    const list = await probes();
    const server = startRefusingPostgres(code, message);
    const tierEndpoint = Deno.env.get("NEON_FETCH_ENDPOINT");
    const bridge = tierEndpoint ? undefined : await startNeonBridge({});
    const adapters: [string, Sql][] = [
      ["tcp", openTcp(server.url, { max: 2 })],
      ["neon", openNeon(server.url, { fetchEndpoint: tierEndpoint ?? bridge!.fetchEndpoint })],
    ];
    try {
      for (const p of list) {
        for (const [name, db] of adapters) {
          assert.deepEqual(
            await answer(db, p),
            { status: p.status, retryAfter: "5", body: p.expected },
            `${p.family} on ${name}`,
          );
        }
      }
    } finally {
      for (const [, db] of adapters) await db.close();
      await bridge?.close();
      await server.close();
    }
  });
}
