/** The gas watch: low service wallets in /metrics, the admin wallets list and a signed webhook. */
import assert from "node:assert/strict";
import { parseEther } from "viem";
import { Webhook } from "standardwebhooks";
import { admin, ADMIN_TOKEN, call, seedTenant } from "../../harness.ts";
import { chainEnv, chainTestOptions, fundedWallet } from "./anvil.ts";
import { GAS_WATCH_EVERY_MS, watchWalletBalances } from "../../../lib/chain/gas_watch.ts";
import { signingSecrets } from "../../../lib/webhooks.ts";
import type { Services } from "../../../lib/services.ts";

/** A receiver for the operational webhook. */
function opsSink() {
  const received: { body: Record<string, unknown>; raw: string; headers: Headers }[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const raw = await req.text();
    received.push({ body: JSON.parse(raw), raw, headers: req.headers });
    return new Response("ok");
  });
  return {
    url: `http://127.0.0.1:${server.addr.port}/ops`,
    received,
    close: () => server.shutdown(),
  };
}

Deno.test({
  ...chainTestOptions,
  name: "a service wallet below POLYGON_LOW_BALANCE_POL is flagged and alerted once per low period",
  async fn() {
    const env = await chainEnv();
    const tenant = await seedTenant("gas watch game");
    const rich = await fundedWallet(tenant.gameIndex, { kms: true });
    const poor = await fundedWallet(tenant.gameIndex, { kms: true });
    const setBalance = (pol: string) =>
      env.anvil.rpc("anvil_setBalance", [poor.address, `0x${parseEther(pol).toString(16)}`]);
    await setBalance("0.25");
    const sink = opsSink();
    const s: Services = {
      ...env.services,
      config: { ...env.services.config, OPS_WEBHOOK_URL: sink.url, POLYGON_LOW_BALANCE_POL: 1 },
    };
    let now = env.clock.now();
    /** Runs the watch until this test's wallets were checked (other tests' wallets share it). */
    const check = async () => {
      for (let i = 0; i < 50; i++) {
        await watchWalletBalances(s, now);
        const rows = await s.db.query(
          `select 1 from chain_wallet_balances where address in ($1, $2) and checked_at = $3`,
          [rich.address.toLowerCase(), poor.address.toLowerCase(), new Date(now)],
        );
        if (rows.length === 2) return;
      }
      throw new Error("the wallets were never checked");
    };
    const alerts = () =>
      sink.received.filter((r) =>
        String(r.body.address).toLowerCase() === poor.address.toLowerCase()
      );
    try {
      await check();
      assert.equal(alerts().length, 1);
      const [alert] = alerts();
      assert.deepEqual(
        { ...alert.body, address: String(alert.body.address).toLowerCase() },
        {
          type: "wallet.low_balance",
          chainId: 31337,
          address: poor.address.toLowerCase(),
          gameIndex: tenant.gameIndex,
          balanceWei: parseEther("0.25").toString(),
          thresholdWei: parseEther("1").toString(),
          checkedAt: new Date(now).toISOString(),
        },
      );
      // Signed with the game's webhook secret (Standard Webhooks).
      const [secret] = await signingSecrets(s, tenant.gameIndex);
      new Webhook(secret).verify(alert.raw, Object.fromEntries(alert.headers));
      assert.ok(
        !sink.received.some((r) =>
          String(r.body.address).toLowerCase() === rich.address.toLowerCase()
        ),
        "a funded wallet is not alerted",
      );
      // Still low at the next check: no second alert.
      now += GAS_WATCH_EVERY_MS;
      await check();
      assert.equal(alerts().length, 1);
      // Shown in /metrics and in the admin wallets list.
      const metrics = await (await call("GET", "/metrics", {
        headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      })).text();
      const line = metrics.split("\n").find((l) =>
        l.startsWith("gp_chain_wallet_low_balance_pol{") &&
        l.toLowerCase().includes(poor.address.toLowerCase())
      );
      assert.ok(line, "the low wallet is in /metrics");
      assert.equal(Number(line.split(" ").at(-1)), 0.25);
      assert.ok(!metrics.toLowerCase().includes(rich.address.toLowerCase()));
      const list = await admin("GET", `/admin/v1/wallets?gameIndex=${tenant.gameIndex}`);
      const flags = Object.fromEntries(
        list.body.items.map((
          w: { address: string; polygon: { lowBalance: boolean } },
        ) => [w.address.toLowerCase(), w.polygon.lowBalance]),
      );
      assert.deepEqual(flags, {
        [rich.address.toLowerCase()]: false,
        [poor.address.toLowerCase()]: true,
      });
      // Funded again, then low again: a new low period, a new alert.
      await setBalance("5");
      now += GAS_WATCH_EVERY_MS;
      await check();
      assert.equal(alerts().length, 1);
      await setBalance("0.5");
      now += GAS_WATCH_EVERY_MS;
      await check();
      assert.equal(alerts().length, 2);
      assert.notEqual(
        alerts()[1].headers.get("webhook-id"),
        alerts()[0].headers.get("webhook-id"),
      );
    } finally {
      await sink.close();
    }
  },
});
