import assert from "node:assert/strict";
import { call, callJson, testEnv } from "../../harness.ts";
import {
  campaignBody,
  createTargeting,
  postCampaign,
  type PushTenant,
  pushTenant,
} from "./fixture.ts";
import { findTargeting, uploadTargets } from "../../../lib/push/targeting.ts";
import type { Sql } from "../../../lib/db/port.ts";
import { dispatchDuePushes } from "../../../lib/push/dispatch.ts";

function upload(t: PushTenant, id: number, targets: unknown) {
  return callJson("POST", `/push/targets/${id}/direct/new`, { headers: t.headers, json: targets });
}

Deno.test("targeting record: created for the key's game, not available until it has data", async () => {
  const t = await pushTenant();
  const r = await createTargeting(t);
  assert.equal(r.status, 200);
  assert.match(r.headers.get("uuid")!, /^[0-9a-f-]{36}$/);
  assert.equal(typeof r.body.id, "number");
  assert.deepEqual({ ...r.body, id: 0 }, {
    id: 0,
    company: "gamevil",
    companyIndex: 3,
    registrant: { id: "op-7", name: "Kim" },
    description: "returning players",
    game: { gameindex: t.tenant.gameIndex },
    available: false,
    locked: false,
  });
  const bad = await createTargeting(t, { company: "acme" });
  assert.deepEqual(bad.body, { error: { reason: "company must be one of com2us, gamevil, gcp" } });
  const foreign = await createTargeting(t, { game: { gameindex: t.tenant.gameIndex + 1000 } });
  assert.equal(foreign.status, 400);
  assert.equal(
    foreign.body.error.reason,
    `game.gameindex ${t.tenant.gameIndex + 1000} is not the API key's game`,
  );
  const missing = await createTargeting(t, { description: undefined });
  assert.deepEqual(missing.body, { error: { reason: "description is required" } });
});

Deno.test("targeting data: 200 with empty body, exactly one identifier, known apps", async () => {
  const t = await pushTenant();
  const { body: { id } } = await createTargeting(t);
  const appid = t.tenant.appid;
  const ok = await call("POST", `/push/targets/${id}/direct/new`, {
    headers: t.headers,
    json: [
      { identifier: { playerId: 1001 }, app: { appid } },
      { identifier: { vid: "9007199254740993" }, app: { appid } },
      { identifier: { playerId: 1001 }, app: { appid } },
    ],
  });
  assert.equal(ok.status, 200);
  assert.equal(await ok.text(), "");
  assert.match(ok.headers.get("uuid")!, /^[0-9a-f-]{36}$/);
  const { services } = await testEnv();
  const record = await findTargeting(services.db, id, t.tenant.gameIndex);
  assert.equal(record?.available, true);
  const rows = await services.db.query<{ kind: string; value: string }>(
    "select kind, value from push_targets where targeting_id = $1 order by kind",
    [id],
  );
  assert.deepEqual(rows, [
    { kind: "playerId", value: "1001" },
    { kind: "vid", value: "9007199254740993" },
  ]);
  const two = await upload(t, id, [{ identifier: { playerId: 1, uid: 2 }, app: { appid } }]);
  assert.deepEqual(two.body, {
    error: { reason: "[0].identifier must hold exactly one of playerId, vid, uid, did" },
  });
  const none = await upload(t, id, [
    { identifier: { did: 5 }, app: { appid } },
    { identifier: {}, app: { appid } },
  ]);
  assert.equal(
    none.body.error.reason,
    "[1].identifier must hold exactly one of playerId, vid, uid, did",
  );
  const noApp = await upload(t, id, [{ identifier: { did: 5 } }]);
  assert.deepEqual(noApp.body, { error: { reason: "[0].app is required" } });
  const other = await pushTenant();
  const foreignApp = await upload(t, id, [{
    identifier: { did: 5 },
    app: { appid: other.tenant.appid },
  }]);
  assert.equal(
    foreignApp.body.error.reason,
    `[0].app.appid ${other.tenant.appid} is not an app of game ${t.tenant.gameIndex}`,
  );
  const notList = await upload(t, id, { identifier: { did: 5 }, app: { appid } });
  assert.equal(notList.status, 400);
  const empty = await upload(t, id, []);
  assert.deepEqual(empty.body, { error: { reason: "body: the target list is empty" } });
  const unknown = await upload(t, 99_999_999, [{ identifier: { did: 5 }, app: { appid } }]);
  assert.equal(unknown.status, 404);
  assert.deepEqual(unknown.body, { error: { reason: "targeting 99999999 not found" } });
  const foreign = await upload(other, id, [{
    identifier: { did: 5 },
    app: { appid: other.tenant.appid },
  }]);
  assert.equal(foreign.status, 404, "another game's record is not visible");
});

Deno.test("targeting data: 10,000 targets per call are stored, 10,001 are refused", async () => {
  const t = await pushTenant();
  const { body: { id } } = await createTargeting(t);
  const appid = t.tenant.appid;
  const list = (n: number) =>
    Array.from({ length: n }, (_, i) => ({ identifier: { uid: 500_000 + i }, app: { appid } }));
  const tooMany = await upload(t, id, list(10_001));
  assert.equal(tooMany.status, 400);
  assert.deepEqual(tooMany.body, { error: { reason: "body: at most 10000 targets per call" } });
  const max = await upload(t, id, list(10_000));
  assert.equal(max.status, 200, JSON.stringify(max.body));
  const { services } = await testEnv();
  const [row] = await services.db.query<{ n: number }>(
    "select count(*)::int as n from push_targets where targeting_id = $1",
    [id],
  );
  assert.equal(row.n, 10_000);
});

Deno.test("targeting data: locked while a campaign using it is sending", async () => {
  const t = await pushTenant();
  const { services, clock } = await testEnv();
  const { body: { id } } = await createTargeting(t);
  const appid = t.tenant.appid;
  assert.equal(
    (await upload(t, id, [{ identifier: { playerId: 1 }, app: { appid } }])).status,
    200,
  );
  const campaign = await postCampaign(t, {
    ...campaignBody(t, { type: "T", targetingId: id }),
    distribution: { enable: true, interval: 60, count: 2 },
  });
  assert.equal(campaign.status, 200, JSON.stringify(campaign.body));
  const start = Date.UTC(2027, 4, 3, 1);
  try {
    clock.set(start + 1000);
    await dispatchDuePushes(services, clock.now());
    const record = await findTargeting(services.db, id, t.tenant.gameIndex);
    assert.equal(record?.locked, true, "first slice sent, second pending: sending");
    const refused = await upload(t, id, [{ identifier: { playerId: 2 }, app: { appid } }]);
    assert.equal(refused.status, 409);
    assert.deepEqual(refused.body, {
      error: { reason: `targeting ${id} is locked: a campaign using it is sending` },
    });
    clock.set(start + 3_600_000 + 1000);
    await dispatchDuePushes(services, clock.now());
    const after = await findTargeting(services.db, id, t.tenant.gameIndex);
    assert.equal(after?.locked, false, "completed campaigns release the record");
    assert.equal(
      (await upload(t, id, [{ identifier: { playerId: 2 }, app: { appid } }])).status,
      200,
    );
  } finally {
    clock.reset();
  }
});

Deno.test("targeting data: a campaign that starts sending during an upload fails the whole upload", async () => {
  const t = await pushTenant();
  const { services } = await testEnv();
  const { body: { id } } = await createTargeting(t);
  const appid = t.tenant.appid;
  const campaign = await postCampaign(t, campaignBody(t, { type: "T", targetingId: id }));
  assert.equal(campaign.status, 200, JSON.stringify(campaign.body));
  // The record is unlocked when checked; the campaign starts sending just before the batch runs.
  const racing: Sql = {
    ...services.db,
    query: (text, params) => services.db.query(text, params),
    transaction: async (statements) => {
      await services.db.query("update push_campaigns set status = 2 where targeting_id = $1", [id]);
      return await services.db.transaction(statements);
    },
  };
  await assert.rejects(
    uploadTargets(racing, id, [{ identifier: { playerId: 9 }, app: { appid } }], {
      gameIndex: t.tenant.gameIndex,
    }),
    (e: { code?: string }) => e.code === "TARGETING_LOCKED",
  );
  const [{ n }] = await services.db.query<{ n: number }>(
    "select count(*)::int as n from push_targets where targeting_id = $1",
    [id],
  );
  assert.equal(n, 0, "nothing of the refused upload was stored");
  await services.db.query("update push_campaigns set status = 4 where targeting_id = $1", [id]);
});
