import assert from "node:assert/strict";
import { admin, callJson, testEnv } from "../../harness.ts";
import { itemFixture } from "../../lib/items/fixture.ts";
import { parseKstDateTime } from "../../../lib/promotion/cpa.ts";

const SUCCESS = { result_code: 0, result_msg: "success", result_message: "success" };

async function cpaFixture(transport: "http" | "tcp" = "http") {
  const f = await itemFixture(transport);
  const cpaCode = `cpa-${crypto.randomUUID().slice(0, 6)}`;
  const reg = await admin("POST", `/admin/v1/games/${f.tenant.gameIndex}/cpa`, {
    appid: f.tenant.appid,
    cpaCode,
    subReason: "6",
    detail: [{ action: "send", assetCode: "gem", amount: 50 }, {
      action: "send",
      assetCode: "skin",
      amount: 1,
    }],
  });
  assert.equal(reg.status, 201, JSON.stringify(reg.body));
  return Object.assign(f, { cpaCode });
}

function notify(body: unknown, headers: Record<string, string> = {}) {
  return callJson("POST", "/api/cpa", {
    body: typeof body === "string" ? body : JSON.stringify(body),
    headers: { "content-type": "text/html", ...headers },
  });
}

for (const transport of ["http", "tcp"] as const) {
  Deno.test(`${transport}: a CPA achievement reaches the game server once as reason p`, async () => {
    const { services } = await testEnv();
    await using f = await cpaFixture(transport);
    const { cpaCode } = f;
    const body = {
      appid: f.tenant.appid,
      vid: "player-42",
      server_id: "kr-1",
      cpa_code: cpaCode,
      cpa_date: "2026-11-21 09:30:00",
    };
    const r = await notify(body);
    assert.equal(r.status, 200);
    assert.deepEqual(r.body, SUCCESS);
    await services.idle();
    assert.equal(f.server.store.applied.length, 1);
    const got = f.server.store.applied[0];
    assert.equal(got.reason, "p");
    assert.equal(got.subReason, "6");
    assert.equal(got.idCategory, "vid");
    assert.equal(got.id, "player-42");
    assert.equal(got.serverId, "kr-1");
    assert.equal(got.gameIndex, f.tenant.gameIndex);
    assert.deepEqual(f.server.store.itemsOf("vid", "player-42"), { gem: 50, skin: 1 });

    const received = f.server.received;
    const again = await notify({ ...body, cpa_date: "2026-11-21 10:00:00" }, {
      "content-type": "application/json",
    });
    assert.deepEqual(again.body, SUCCESS);
    await services.idle();
    assert.equal(f.server.received, received, "a repeated achievement sends nothing");
    assert.equal(f.server.store.applied.length, 1);
    assert.deepEqual(f.server.store.itemsOf("vid", "player-42"), { gem: 50, skin: 1 });
  });
}

Deno.test("POST /api/cpa: uid users, optional bearer key, and documented failure codes", async () => {
  const { services } = await testEnv();
  await using f = await cpaFixture();
  const { cpaCode } = f;
  const base = { appid: f.tenant.appid, server_id: "s", cpa_code: cpaCode };
  const { apiKey } = await f.tenant.apiKey(["cpa"]);
  const ok = await notify({ ...base, uid: "u-1" }, { authorization: `Bearer ${apiKey}` });
  assert.deepEqual(ok.body, SUCCESS);
  await services.idle();
  assert.deepEqual(f.server.store.itemsOf("uid", "u-1"), { gem: 50, skin: 1 });

  const cases: [unknown, number, number, RegExp, Record<string, string>?][] = [
    [{ ...base, vid: "a", uid: "b" }, 400, 1, /exactly one of vid and uid/],
    [{ ...base }, 400, 1, /exactly one of vid and uid/],
    [{ ...base, vid: "a", cpa_date: "2026/11/21" }, 400, 1, /cpa_date/],
    [{ ...base, vid: "a", cpa_date: "2026-02-30 00:00:00" }, 400, 1, /cpa_date/],
    [{ vid: "a", server_id: "s", cpa_code: cpaCode }, 400, 1, /appid is required/],
    ["{broken", 400, 1, /not valid JSON/],
    [{ ...base, appid: "no-such-app", vid: "a" }, 400, 2, /appid no-such-app is unknown/],
    [{ ...base, cpa_code: "nope", vid: "a" }, 400, 3, /cpa_code nope is not registered/],
    [{ ...base, vid: "a" }, 401, 4, /API key invalid/, { authorization: "Bearer junk" }],
    [{ ...base, vid: "a" }, 401, 4, /Bearer/, { authorization: "Basic abc" }],
  ];
  const { apiKey: itemsKey } = await f.tenant.apiKey(["items"]);
  cases.push([{ ...base, vid: "a" }, 401, 4, /scope/, { authorization: `Bearer ${itemsKey}` }]);
  for (const [body, status, code, message, headers] of cases) {
    const r = await notify(body, headers);
    assert.equal(r.status, status, JSON.stringify(body));
    assert.equal(r.body.result_code, code, JSON.stringify(body));
    assert.match(r.body.result_msg, message);
    assert.equal(r.body.result_message, r.body.result_msg);
  }
  assert.equal(f.server.store.applied.length, 1, "no failure produced a reward");
});

Deno.test("admin CPA campaign: validates subReason and the app's game", async () => {
  await using f = await cpaFixture();
  const path = `/admin/v1/games/${f.tenant.gameIndex}/cpa`;
  const detail = [{ action: "send", assetCode: "gem", amount: 1 }];
  const badSub = await admin("POST", path, {
    appid: f.tenant.appid,
    cpaCode: "c",
    subReason: "12",
    detail,
  });
  assert.equal(badSub.status, 400);
  assert.match(badSub.body.error.message, /subReason/);
  const noDetail = await admin("POST", path, {
    appid: f.tenant.appid,
    cpaCode: "c",
    subReason: "2",
    detail: [],
  });
  assert.equal(noDetail.status, 400);
  const otherApp = await admin("POST", path, {
    appid: "not-mine",
    cpaCode: "c",
    subReason: "2",
    detail,
  });
  assert.equal(otherApp.status, 404);
  assert.equal(otherApp.body.error.code, "APP_NOT_FOUND");
});

Deno.test("cpa_date is read as Korea Standard Time", () => {
  assert.equal(parseKstDateTime("2026-01-01 09:00:00"), Date.UTC(2026, 0, 1, 0, 0, 0));
  assert.equal(parseKstDateTime("2026-13-01 00:00:00"), null);
  assert.equal(parseKstDateTime("2026-01-01 24:00:00"), null);
});
