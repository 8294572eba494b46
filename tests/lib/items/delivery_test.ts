/**
 * End-to-end delivery to the reference game server (a real peer) over HTTP and over TCP:
 * Apihash, all-or-nothing detail entries, duplicates, the retry path and lease recovery.
 */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { admin, testEnv } from "../../harness.ts";
import { itemFixture } from "./fixture.ts";
import { claimDueDeliveries, dispatchDueItems, leaseMs } from "../../../lib/items/dispatcher.ts";
import { registerItemRequest } from "../../../lib/items/register.ts";
import { sendItemBody } from "../../../lib/items/transport.ts";
import { itemRequestInputSchema } from "../../../lib/items/record.ts";

for (const transport of ["http", "tcp"] as const) {
  Deno.test(`${transport}: a Korean body arrives with an Apihash matching an independent SHA-1`, async () => {
    await using f = await itemFixture(transport);
    const body = f.body({ userMessage: "축하합니다! 보상을 받으세요", id: "유저1" });
    const r = await f.register(body);
    assert.equal(r.status, 202);
    assert.deepEqual(r.body, {
      code: 0,
      message: "registered",
      transactionId: body.transactionId,
      status: "REGISTERED",
    });
    await (await testEnv()).services.idle();
    const got = f.server.raw.find((x) => x.body.includes(String(body.transactionId)))!;
    assert.equal(got.via, transport);
    assert.ok(!/[^\x20-\x7e]/.test(got.body), "body is pure ASCII");
    assert.ok(got.body.includes("\\ucd95\\ud558"), "Korean text escaped as \\uXXXX");
    const independent = createHash("sha1").update(`!@#${f.vendorWord}!@#`).update(got.body)
      .digest("hex");
    assert.equal(got.apihash, independent);
    assert.equal(JSON.parse(got.body).userMessage, "축하합니다! 보상을 받으세요");
    const s = await f.status(String(body.transactionId));
    assert.equal(s.body.status, "DELIVERED");
    assert.equal(s.body.lastCode, 20000);
    assert.equal(s.body.attempts, 1);
    assert.ok(s.body.deliveredAt);
    assert.deepEqual(f.server.store.itemsOf("vid", "유저1"), { gold: 100 });
  });

  Deno.test(`${transport}: three entries with one invalid are rolled back entirely`, async () => {
    await using f = await itemFixture(transport);
    const body = f.body({
      id: "rollback-user",
      detail: [
        { action: "send", assetCode: "gold", amount: 10 },
        { action: "send", assetCode: "no-such-item", amount: 1 },
        { action: "send", assetCode: "gem", amount: 5 },
      ],
    });
    assert.equal((await f.register(body)).status, 202);
    await (await testEnv()).services.idle();
    const s = await f.status(String(body.transactionId));
    assert.equal(s.body.status, "FAILED");
    assert.equal(s.body.lastCode, 50005);
    assert.match(s.body.lastMessage, /detail\[1\]\.assetCode no-such-item/);
    assert.deepEqual(f.server.store.itemsOf("vid", "rollback-user"), {});
    assert.equal(f.server.store.applied.length, 0);
    assert.equal(s.body.attempts, 1, "a permanent failure is not retried");
  });

  Deno.test(`${transport}: a delivered transaction sent again gets 20001 and is granted once`, async () => {
    const { services } = await testEnv();
    await using f = await itemFixture(transport);
    const body = f.body({ id: "dup-user" });
    await f.register(body);
    await services.idle();
    assert.equal((await f.status(String(body.transactionId))).body.status, "DELIVERED");
    const sent = f.server.raw.find((x) => x.body.includes(String(body.transactionId)))!.body;
    const again = JSON.parse(
      await sendItemBody(services, { endpoint: f.endpoint, body: sent, timeoutMs: 5_000 }),
    );
    assert.equal(again.code, 20001);
    // Registering it again answers the same and sends nothing.
    const before = f.server.received;
    const r = await f.register(body);
    assert.equal(r.status, 202);
    assert.deepEqual(r.body, {
      code: 0,
      message: "registered",
      transactionId: body.transactionId,
      status: "REGISTERED",
    });
    await services.idle();
    assert.equal(f.server.received, before);
    const s = await f.status(String(body.transactionId));
    assert.equal(s.body.status, "DELIVERED");
    assert.equal(s.body.attempts, 1);
    assert.equal(f.server.store.applied.length, 1);
    assert.deepEqual(f.server.store.itemsOf("vid", "dup-user"), { gold: 100 });
  });

  Deno.test(`${transport}: down, then slow past the timeout, then 50004, then recovered: granted once`, async () => {
    const { services, clock } = await testEnv();
    await using f = await itemFixture(transport);
    const cfg = services.config;
    await f.server.stop();
    const body = f.body({ id: "retry-user" });
    assert.equal((await f.register(body)).status, 202);
    await services.idle();
    let s = await f.status(String(body.transactionId));
    assert.equal(s.body.status, "RETRYING");
    assert.equal(s.body.attempts, 1);
    assert.equal(s.body.lastCode, null);

    // Not due yet: backoff holds it back.
    assert.equal(await dispatchDueItems(services, { gameIndex: f.tenant.gameIndex }), 0);

    await f.server.start();
    f.server.faults.push({ kind: "slow", ms: 1_500 });
    clock.advance(cfg.ITEM_RETRY_MAX_MS + 1);
    await dispatchDueItems(services, { gameIndex: f.tenant.gameIndex, attemptTimeoutMs: 300 });
    s = await f.status(String(body.transactionId));
    assert.equal(s.body.status, "RETRYING");
    assert.equal(s.body.attempts, 2);
    assert.match(s.body.lastMessage, /timed out|timeout/);
    // The slow server finishes applying after we gave up on it.
    await new Promise((r) => setTimeout(r, 1_700));

    f.server.faults.push({ kind: "code", code: 50004, message: "db error" });
    clock.advance(cfg.ITEM_RETRY_MAX_MS + 1);
    await dispatchDueItems(services, { gameIndex: f.tenant.gameIndex });
    s = await f.status(String(body.transactionId));
    assert.equal(s.body.status, "RETRYING");
    assert.equal(s.body.lastCode, 50004);

    clock.advance(cfg.ITEM_RETRY_MAX_MS + 1);
    await dispatchDueItems(services, { gameIndex: f.tenant.gameIndex });
    s = await f.status(String(body.transactionId));
    assert.equal(s.body.status, "DELIVERED");
    assert.equal(s.body.attempts, 4);
    assert.equal(f.server.store.applied.length, 1, "exactly one grant");
    assert.deepEqual(f.server.store.itemsOf("vid", "retry-user"), { gold: 100 });
  });
}

Deno.test("a dispatcher stopped mid-claim loses nothing; the next one delivers once", async () => {
  const { services, clock } = await testEnv();
  await using f = await itemFixture("http");
  const input = itemRequestInputSchema.parse(f.body({ id: "lease-user" }));
  const other = itemRequestInputSchema.parse(f.body({ id: "lease-user-2" }));
  await registerItemRequest(services.db, input, { nowMs: clock.now() });
  await registerItemRequest(services.db, other, { nowMs: clock.now() });
  // Dispatcher A claims both and dies: one before sending, one after sending.
  const claims = await claimDueDeliveries(services, { gameIndex: f.tenant.gameIndex });
  assert.equal(claims.length, 2);
  const sentOne = claims.find((c) => c.transactionId === other.transactionId)!;
  assert.equal(
    JSON.parse(await sendItemBody(services, { ...sentOne, timeoutMs: 5_000 })).code,
    20000,
  );
  // While the lease lives nobody else takes them.
  assert.equal(await dispatchDueItems(services, { gameIndex: f.tenant.gameIndex }), 0);
  assert.equal((await f.status(String(input.transactionId))).body.status, "REGISTERED");

  clock.advance(leaseMs(services) + 1);
  assert.equal(await dispatchDueItems(services, { gameIndex: f.tenant.gameIndex }), 2);
  const a = await f.status(String(input.transactionId));
  const b = await f.status(String(other.transactionId));
  assert.equal(a.body.status, "DELIVERED");
  assert.equal(a.body.lastCode, 20000);
  assert.equal(b.body.status, "DELIVERED");
  assert.equal(b.body.lastCode, 20001, "the repeat was absorbed by the receiver");
  assert.equal(f.server.store.applied.length, 2);
  assert.deepEqual(f.server.store.itemsOf("vid", "lease-user-2"), { gold: 100 });
});

Deno.test("retryable failures end FAILED after ITEM_MAX_ATTEMPTS attempts", async () => {
  const { services, clock } = await testEnv();
  await using f = await itemFixture("http");
  const max = services.config.ITEM_MAX_ATTEMPTS;
  for (let i = 0; i < max + 2; i++) f.server.faults.push({ kind: "garbage" });
  const body = f.body({ id: "giveup-user" });
  await f.register(body);
  await services.idle();
  for (let i = 1; i < max + 1; i++) {
    clock.advance(services.config.ITEM_RETRY_MAX_MS + 1);
    await dispatchDueItems(services, { gameIndex: f.tenant.gameIndex });
  }
  const s = await f.status(String(body.transactionId));
  assert.equal(s.body.status, "FAILED");
  assert.equal(s.body.attempts, max);
  assert.match(s.body.lastMessage, /without code and message/);
  assert.equal(f.server.store.applied.length, 0);
});

Deno.test("a 40002 answer fails the request and marks the endpoint configuration suspect", async () => {
  const { services } = await testEnv();
  await using f = await itemFixture("tcp");
  // The operator registered the wrong vendor word.
  await admin("PUT", `/admin/v1/games/${f.tenant.gameIndex}/item-endpoint`, {
    transport: "tcp",
    host: f.server.hostname,
    port: f.server.tcpPort,
    vendorWord: "wrong-word",
  });
  const body = f.body();
  await f.register(body);
  await services.idle();
  const s = await f.status(String(body.transactionId));
  assert.equal(s.body.status, "FAILED");
  assert.equal(s.body.lastCode, 40002);
  const ep = await admin("GET", `/admin/v1/games/${f.tenant.gameIndex}/item-endpoint`);
  assert.equal(ep.body.configSuspect, true);
  assert.match(ep.body.suspectReason, /40002/);
  assert.equal(ep.body.port, f.server.tcpPort);
  assert.equal("vendorWord" in ep.body, false, "the vendor word is never shown");
});

Deno.test("dispatchers running at once send every request exactly once", async () => {
  const { services, clock } = await testEnv();
  await using f = await itemFixture("tcp");
  const inputs = Array.from(
    { length: 20 },
    (_, i) => itemRequestInputSchema.parse(f.body({ id: `many-${i}` })),
  );
  await Promise.all(
    inputs.map((i) => registerItemRequest(services.db, i, { nowMs: clock.now() })),
  );
  const sent = await Promise.all(
    [1, 2, 3].map(() =>
      dispatchDueItems(services, { gameIndex: f.tenant.gameIndex, batchSize: 4, concurrency: 2 })
    ),
  );
  assert.equal(sent.reduce((a, b) => a + b, 0), 20, "each row claimed by exactly one dispatcher");
  assert.equal(f.server.received, 20, "nothing sent twice");
  assert.equal(f.server.store.applied.length, 20);
  for (const i of inputs) {
    assert.equal((await f.status(String(i.transactionId))).body.status, "DELIVERED");
  }
});
