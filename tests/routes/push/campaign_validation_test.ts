import assert from "node:assert/strict";
import { call } from "../../harness.ts";
import {
  campaignBody,
  createTargeting,
  postCampaign,
  type PushTenant,
  pushTenant,
  withReservation,
} from "./fixture.ts";

type Body = Record<string, unknown>;

async function assertRefused(t: PushTenant, body: unknown, reason: string) {
  const r = await postCampaign(t, body);
  assert.equal(r.status, 400, `expected 400 for "${reason}", got ${JSON.stringify(r.body)}`);
  assert.deepEqual(r.body, { error: { reason } });
  assert.match(r.headers.get("uuid") ?? "", /^[0-9a-f-]{36}$/);
}

function without(body: Body, key: string): Body {
  const copy = { ...body };
  delete copy[key];
  return copy;
}

function message(t: PushTenant, en: unknown, extra: Body = {}) {
  return campaignBody(t, { notification: { en, ...extra } });
}

Deno.test("top-level fields: required, types and allowed values", async () => {
  const t = await pushTenant();
  const body = campaignBody(t);
  await assertRefused(t, without(body, "company"), "company is required");
  await assertRefused(
    t,
    { ...body, company: "nexon" },
    "company must be one of com2us, gamevil, gcp",
  );
  const r = await postCampaign(t, { ...body, companyIndex: "7" });
  assert.equal(r.status, 400);
  assert.match(r.body.error.reason, /^companyIndex: /);
  await assertRefused(t, without(body, "companyIndex"), "companyIndex is required");
  await assertRefused(t, { ...body, description: " " }, "description: must not be empty");
  await assertRefused(t, { ...body, type: "X" }, "type: must be B (bulk) or T (targeting)");
  await assertRefused(t, without(body, "registrant"), "registrant is required");
  await assertRefused(t, { ...body, registrant: { name: "x" } }, "registrant.id is required");
  await assertRefused(t, without(body, "continents"), "continents is required");
  await assertRefused(t, without(body, "countries"), "countries is required");
  await assertRefused(t, without(body, "defaultLanguage"), "defaultLanguage is required");
  const notice = await postCampaign(t, { ...body, notice: "yes" });
  assert.match(notice.body.error.reason, /^notice: /);
});

Deno.test("edit fields: id and status come together, status values are defined", async () => {
  const t = await pushTenant();
  const body = campaignBody(t);
  await assertRefused(
    t,
    { ...body, id: 5 },
    "status is required when editing a campaign (id given)",
  );
  await assertRefused(
    t,
    { ...body, status: 1 },
    "id is required when editing a campaign (status given)",
  );
  await assertRefused(
    t,
    { ...body, id: 5, status: 9 },
    "status must be 1 (registered), 2 (sending), 3 (completed) or 4 (cancelled)",
  );
});

Deno.test("type T needs a targetingId of the same game; type B refuses one", async () => {
  const t = await pushTenant();
  const other = await pushTenant();
  await assertRefused(
    t,
    campaignBody(t, { type: "T" }),
    "targetingId is required for a targeting campaign (type T)",
  );
  const { body: foreign } = await createTargeting(other, { description: "other game" });
  await assertRefused(
    t,
    campaignBody(t, { type: "T", targetingId: foreign.id }),
    `targetingId ${foreign.id} is not a targeting record of game ${t.tenant.gameIndex}`,
  );
  await assertRefused(
    t,
    campaignBody(t, { targetingId: foreign.id }),
    "targetingId is only allowed with type T",
  );
});

Deno.test("reservation: dates, time, weekday, skip, past schedules", async () => {
  const t = await pushTenant();
  const r = (patch: Body) => withReservation(t, patch);
  const base = campaignBody(t);
  await assertRefused(
    t,
    { ...base, reservation: without(base.reservation, "localizing") },
    "reservation.localizing is required",
  );
  await assertRefused(
    t,
    { ...base, reservation: without(base.reservation, "repeat") },
    "reservation.repeat is required",
  );
  await assertRefused(
    t,
    r({ startDate: "2027/05/03" }),
    "reservation.startDate must be a date YYYY-MM-DD",
  );
  await assertRefused(
    t,
    r({ startDate: "2027-02-30" }),
    "reservation.startDate must be a date YYYY-MM-DD",
  );
  await assertRefused(
    t,
    r({ endDate: "2027-5-9" }),
    "reservation.endDate must be a date YYYY-MM-DD",
  );
  await assertRefused(
    t,
    r({ startDate: "2027-05-10" }),
    "reservation.startDate must not be after reservation.endDate",
  );
  for (const time of ["24:00", "10", "10:60", "10:00:60", "9:00"]) {
    await assertRefused(t, r({ time }), "reservation.time must be HH:mm or HH:mm:ss");
  }
  assert.equal((await postCampaign(t, { ...r({ time: "10:00:30" }), dryRun: true })).status, 200);
  await assertRefused(
    t,
    r({ repeat: true, weekday: [1, 8] }),
    "reservation.weekday[1] must be 1 (Monday) to 7 (Sunday), got 8",
  );
  await assertRefused(
    t,
    r({ repeat: true, weekday: [0] }),
    "reservation.weekday[0] must be 1 (Monday) to 7 (Sunday), got 0",
  );
  await assertRefused(t, r({ skip: ["05-04"] }), "reservation.skip[0] must be a date YYYY-MM-DD");
  await assertRefused(
    t,
    r({ skip: ["2027-05-04", "2027-06-01"] }),
    "reservation.skip[1] 2027-06-01 is outside the period 2027-05-03..2027-05-09",
  );
  await assertRefused(
    t,
    r({ startDate: "2027-01-01", endDate: "2028-01-02" }),
    "reservation: the period must not exceed 366 days",
  );
  const noDate =
    "reservation: no sending time remains in the future (check startDate, endDate, time, weekday and skip)";
  await assertRefused(t, r({ startDate: "2020-01-01", endDate: "2020-01-02" }), noDate);
  await assertRefused(t, r({ skip: ["2027-05-03"] }), noDate);
  await assertRefused(t, r({ repeat: true, weekday: [3], endDate: "2027-05-04" }), noDate);
});

Deno.test("distribution: interval and count required when enabled, within bounds", async () => {
  const t = await pushTenant();
  const d = (distribution: Body) => campaignBody(t, { distribution });
  await assertRefused(
    t,
    d({ enable: true, count: 2 }),
    "distribution.interval is required when enabled",
  );
  await assertRefused(
    t,
    d({ enable: true, interval: 5 }),
    "distribution.count is required when enabled",
  );
  await assertRefused(
    t,
    d({ enable: true, interval: 0, count: 2 }),
    "distribution.interval must be 1 to 1440 minutes",
  );
  await assertRefused(
    t,
    d({ enable: true, interval: 5, count: 0 }),
    "distribution.count must be 1 to 100",
  );
  await assertRefused(
    t,
    d({ enable: true, interval: 5, count: 101 }),
    "distribution.count must be 1 to 100",
  );
  const huge = {
    ...d({ enable: true, interval: 1, count: 100 }),
    countries: ["US"],
    reservation: {
      localizing: true,
      startDate: "2027-05-01",
      endDate: "2027-08-31",
      time: "10:00",
      repeat: true,
    },
  };
  const tooMany = await postCampaign(t, huge);
  assert.equal(tooMany.status, 400);
  assert.match(
    tooMany.body.error.reason,
    /^reservation: the schedule has \d+ sendings \(tasks x distribution.count\); at most 20000$/,
  );
  const off = await postCampaign(t, { ...d({ enable: false, count: 0 }), dryRun: true });
  assert.equal(off.status, 200, "a disabled distribution is not checked");
});

Deno.test("audience: continents by either key, codes or English names, countries from the table", async () => {
  const t = await pushTenant();
  const c = (patch: Body) => campaignBody(t, patch);
  await assertRefused(
    t,
    c({ continents: [{ countries: ["KR"] }] }),
    "continents[0].continent is required",
  );
  await assertRefused(
    t,
    c({ continents: [{ name: "Atlantis" }] }),
    "continents[0].continent Atlantis must be one of Africa, Americas, Asia, Europe, Oceania, Polar",
  );
  await assertRefused(
    t,
    c({ continents: [{ name: "Asia", countries: ["Japan", "France"] }] }),
    "continents[0].countries[1] France is not in Asia",
  );
  await assertRefused(
    t,
    c({ continents: [{ continent: "Europe", countries: ["Narnia"] }] }),
    "continents[0].countries[0] Narnia is not a known country",
  );
  await assertRefused(
    t,
    c({ countries: ["KR", "XX"] }),
    "countries[1] XX is not a country code of the spec's table",
  );
  await assertRefused(
    t,
    c({ countries: [], continents: [] }),
    "countries: the campaign names no audience country",
  );
  const ok = await postCampaign(t, {
    ...c({
      countries: [],
      continents: [
        { name: "Europe", countries: ["Germany", "United Kingdom"] },
        { continent: "asia", countries: ["jp"] },
      ],
      reservation: { ...campaignBody(t).reservation, localizing: true },
    }),
    dryRun: true,
  });
  assert.equal(ok.status, 200, JSON.stringify(ok.body));
  const zones = Object.values(ok.body.tasks).flatMap((task) => (task as { zones: string[] }).zones);
  for (const z of ["Europe/Berlin", "Europe/London", "Asia/Tokyo"]) assert.ok(zones.includes(z), z);
});

Deno.test("game: the key's game and its apps only", async () => {
  const t = await pushTenant();
  const other = await pushTenant();
  await assertRefused(
    t,
    campaignBody(t, {
      game: { gameindex: other.tenant.gameIndex, apps: [{ appindex: 1, appid: t.tenant.appid }] },
    }),
    `game.gameindex ${other.tenant.gameIndex} is not the API key's game`,
  );
  await assertRefused(
    t,
    campaignBody(t, {
      game: { gameindex: t.tenant.gameIndex, apps: [{ appindex: 1, appid: other.tenant.appid }] },
    }),
    `game.apps[0].appid ${other.tenant.appid} is not an app of game ${t.tenant.gameIndex}`,
  );
  await assertRefused(
    t,
    campaignBody(t, { game: { gameindex: t.tenant.gameIndex, apps: [] } }),
    "game.apps: must name at least one app",
  );
  await assertRefused(
    t,
    campaignBody(t, { game: { gameindex: t.tenant.gameIndex, apps: [{ appid: t.tenant.appid }] } }),
    "game.apps[0].appindex is required",
  );
});

Deno.test("languages and messages: codes, default language, channels, facebook letters", async () => {
  const t = await pushTenant();
  const android = { title: "Hi", message: "Hello there" };
  await assertRefused(
    t,
    campaignBody(t, { defaultLanguage: "kr" }),
    "defaultLanguage must be one of ko, zh-hans, zh-hant, en, ja, ar, fr, de, es, pt, th, it, ru, id, vi, tr",
  );
  await assertRefused(
    t,
    without(campaignBody(t), "notification"),
    "notification is required: a message keyed by language code",
  );
  await assertRefused(
    t,
    message(t, { android }, { kr: { android } }),
    "notification.kr: kr is not a language code of the spec's list",
  );
  await assertRefused(
    t,
    campaignBody(t, { notification: { ko: { android } } }),
    "notification must hold the defaultLanguage en",
  );
  await assertRefused(
    t,
    message(t, {}),
    "notification.en must hold an android, ios or facebook message",
  );
  await assertRefused(
    t,
    message(t, { android: { message: "x" } }),
    "notification.en.android.title is required",
  );
  await assertRefused(
    t,
    message(t, { ios: { title: "x" } }),
    "notification.en.ios.message is required",
  );
  await assertRefused(
    t,
    message(t, { android: { title: "", message: "x" } }),
    "notification.en.android.title: must not be empty",
  );
  const media = "https://cdn.example.com/spring.png";
  const fb = (title: string, body: string) => message(t, { facebook: { title, body, media } });
  await assertRefused(
    t,
    message(t, { facebook: { title: "Spring", body: "Spring event starts" } }),
    "notification.en.facebook.media is required",
  );
  await assertRefused(
    t,
    message(t, { facebook: { title: "Spring", body: "Spring event starts", media: "spring.png" } }),
    "notification.en.facebook.media: must be an http(s) image address",
  );
  await assertRefused(
    t,
    fb("", "ten letters!"),
    "notification.en.facebook.title: must be 1 to 30 letters",
  );
  await assertRefused(
    t,
    fb("x".repeat(31), "ten letters!"),
    "notification.en.facebook.title: must be 1 to 30 letters",
  );
  await assertRefused(
    t,
    fb("ok", "nine lett"),
    "notification.en.facebook.body: must be 10 to 180 letters",
  );
  await assertRefused(
    t,
    fb("ok", "b".repeat(181)),
    "notification.en.facebook.body: must be 10 to 180 letters",
  );
  // Letters, not bytes: 30 Hangul syllables are 90 UTF-8 bytes and still a valid title.
  const hangul = await postCampaign(t, { ...fb("가".repeat(30), "나".repeat(180)), dryRun: true });
  assert.equal(hangul.status, 200, JSON.stringify(hangul.body));
  await assertRefused(
    t,
    fb("가".repeat(31), "나".repeat(10)),
    "notification.en.facebook.title: must be 1 to 30 letters",
  );
});

Deno.test("body problems: malformed JSON, wrong content type, no body", async () => {
  const t = await pushTenant();
  const bad = await call("POST", "/push/campaigns", {
    headers: { ...t.headers, "content-type": "application/json" },
    body: "{not json",
  });
  assert.equal(bad.status, 400);
  assert.deepEqual(await bad.json(), { error: { reason: "request body is not valid JSON" } });
  assert.ok(bad.headers.get("uuid"));
  const text = await call("POST", "/push/campaigns", {
    headers: { ...t.headers, "content-type": "text/plain" },
    body: JSON.stringify(campaignBody(t)),
  });
  assert.equal(text.status, 400);
  assert.ok((await text.json()).error.reason);
  const empty = await call("POST", "/push/campaigns", { headers: t.headers });
  assert.equal(empty.status, 400);
  assert.ok((await empty.json()).error.reason);
});
