import assert from "node:assert/strict";
import { admin, call, callJson, testEnv } from "../../harness.ts";
import { campaignBody, postCampaign, pushTenant } from "./fixture.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

Deno.test("auth: 401 for missing, invalid, revoked and unscoped keys; 403 for another scheme", async () => {
  const t = await pushTenant();
  const body = campaignBody(t);
  const post = (headers: Record<string, string>) =>
    callJson("POST", "/push/campaigns", { json: body, headers });
  const missing = await post({});
  assert.equal(missing.status, 401);
  assert.deepEqual(missing.body, { error: { reason: "Authorization header missing" } });
  assert.equal((await post({ authorization: "bearer not-a-key" })).status, 401);
  const key = t.headers.authorization.slice("bearer ".length);
  const basic = await post({ authorization: `Basic ${key}` });
  assert.equal(basic.status, 403);
  assert.deepEqual(basic.body, { error: { reason: "authorization scheme must be Bearer" } });
  const otpOnly = await t.tenant.apiKey(["otp"]);
  const unscoped = await post({ authorization: `Bearer ${otpOnly.apiKey}` });
  assert.equal(unscoped.status, 401);
  assert.deepEqual(unscoped.body, { error: { reason: "API key lacks the push scope" } });
  const revoked = await t.tenant.apiKey(["push"]);
  assert.equal((await post({ authorization: `BEARER ${revoked.apiKey}` })).status, 200);
  assert.equal((await admin("DELETE", `/admin/v1/api-keys/${revoked.keyId}`)).status, 204);
  const after = await post({ authorization: `Bearer ${revoked.apiKey}` });
  assert.equal(after.status, 401);
  for (const r of [missing, basic, unscoped, after]) assert.match(r.headers.get("uuid")!, UUID);
});

Deno.test("every push response carries a fresh UUID header", async () => {
  const t = await pushTenant();
  const a = await postCampaign(t, { ...campaignBody(t), dryRun: true });
  const b = await postCampaign(t, { ...campaignBody(t), dryRun: true });
  const nf = await call("GET", "/push/nothing-here", { headers: t.headers });
  assert.equal(nf.status, 404);
  const ids = [a.headers.get("uuid"), b.headers.get("uuid"), nf.headers.get("uuid")];
  for (const id of ids) assert.match(id ?? "", UUID);
  assert.equal(new Set(ids).size, 3);
});

Deno.test("registration answers the campaign with its schedule and stores it", async () => {
  const t = await pushTenant();
  const body = campaignBody(t, { debug: true });
  const r = await postCampaign(t, body);
  assert.equal(r.status, 200);
  assert.equal(typeof r.body.id, "number");
  assert.equal(r.body.status, 1);
  assert.equal(r.body.modify, false);
  assert.equal(r.body.dryRun, false);
  assert.equal(r.body.debug, true);
  assert.match(r.body.uuid, UUID);
  assert.equal(r.body.description, "spring event");
  assert.deepEqual(r.body.game, body.game);
  assert.deepEqual(Object.keys(r.body.tasks), ["2027-05-03T01:00:00Z"]);
  assert.equal(r.body.lastEndTime, Date.UTC(2027, 4, 3, 1) / 1000);
  assert.equal(typeof r.body.timestamp.time, "number");
  assert.equal(new Date(r.body.timestamp.date).getTime(), r.body.timestamp.time);
  const { services } = await testEnv();
  const slices = await services.db.query(
    "select send_at from push_slices where campaign_id = $1",
    [r.body.id],
  );
  assert.equal(slices.length, 1);
});

Deno.test("dryRun validates and schedules without storing anything", async () => {
  const t = await pushTenant();
  const r = await postCampaign(t, { ...campaignBody(t), dryRun: true });
  assert.equal(r.status, 200);
  assert.equal(r.body.dryRun, true);
  assert.equal(r.body.id, null);
  assert.equal(Object.keys(r.body.tasks).length, 1);
  const { services } = await testEnv();
  const [row] = await services.db.query<{ n: number }>(
    "select count(*)::int as n from push_campaigns where game_index = $1",
    [t.tenant.gameIndex],
  );
  assert.equal(row.n, 0);
  const invalid = await postCampaign(t, { ...campaignBody(t), company: "x", dryRun: true });
  assert.equal(invalid.status, 400, "dryRun still validates");
});

Deno.test("edit: replaces a registered campaign's schedule; unknown ids are 404", async () => {
  const t = await pushTenant();
  const first = await postCampaign(t, campaignBody(t));
  const id = first.body.id;
  const edited = await postCampaign(t, {
    ...campaignBody(t, { description: "moved" }),
    id,
    status: 1,
    reservation: { ...campaignBody(t).reservation, time: "18:30" },
  });
  assert.equal(edited.status, 200, JSON.stringify(edited.body));
  assert.equal(edited.body.id, id);
  assert.equal(edited.body.modify, true);
  assert.equal(edited.body.uuid, first.body.uuid, "an edit keeps the campaign's uuid");
  assert.deepEqual(Object.keys(edited.body.tasks), ["2027-05-03T09:30:00Z"]);
  const { services } = await testEnv();
  const slices = await services.db.query<{ task_key: string }>(
    "select task_key from push_slices where campaign_id = $1",
    [id],
  );
  assert.deepEqual(slices.map((s) => s.task_key), ["2027-05-03T09:30:00Z"]);

  const unknown = await postCampaign(t, { ...campaignBody(t), id: 99_999_999, status: 1 });
  assert.equal(unknown.status, 404);
  assert.deepEqual(unknown.body, { error: { reason: "campaign 99999999 not found" } });
  const other = await pushTenant();
  const foreign = await postCampaign(other, { ...campaignBody(other), id, status: 1 });
  assert.equal(foreign.status, 404, "another game's campaign is not visible");
  const sending = await postCampaign(t, { ...campaignBody(t), id, status: 2 });
  assert.equal(sending.status, 400);
  assert.equal(
    sending.body.error.reason,
    "status 2 (sending) is set by the dispatcher; an edit sends 1 (registered) or 4 (cancelled)",
  );
});

Deno.test("edit: cancelling stops the schedule and closes the campaign to edits", async () => {
  const t = await pushTenant();
  const { body: { id } } = await postCampaign(t, campaignBody(t));
  const dry = await postCampaign(t, { ...campaignBody(t), id, status: 4, dryRun: true });
  assert.equal(dry.body.status, 4);
  const cancelled = await postCampaign(t, { ...campaignBody(t), id, status: 4 });
  assert.equal(cancelled.status, 200);
  assert.equal(cancelled.body.status, 4);
  assert.deepEqual(cancelled.body.tasks, {});
  const { services } = await testEnv();
  const rows = await services.db.query<{ state: string; status: number }>(
    `select s.state, c.status from push_slices s join push_campaigns c on c.id = s.campaign_id
     where c.id = $1`,
    [id],
  );
  assert.deepEqual(rows, [{ state: "cancelled", status: 4 }]);
  const again = await postCampaign(t, { ...campaignBody(t), id, status: 1 });
  assert.equal(again.status, 409);
  assert.deepEqual(again.body, {
    error: { reason: `campaign ${id} is cancelled and cannot be edited` },
  });
});

Deno.test("a localizing campaign in Europe and the Americas follows both DST changes", async () => {
  const t = await pushTenant();
  const r = await postCampaign(t, {
    ...campaignBody(t, {
      countries: [],
      continents: [
        { name: "Europe", countries: ["Germany", "GB"] },
        { continent: "Americas", countries: ["United States"] },
      ],
      reservation: {
        localizing: true,
        startDate: "2027-03-12",
        endDate: "2027-03-30",
        time: "09:00",
        repeat: true,
        weekday: [6, 1],
      },
    }),
    dryRun: true,
  });
  assert.equal(r.status, 200, JSON.stringify(r.body));
  const tasks = r.body.tasks as Record<
    string,
    { date: string; gmtOffset: number; zones: string[] }
  >;
  const find = (date: string, zone: string) =>
    Object.entries(tasks).find(([, x]) => x.date === date && x.zones.includes(zone));
  // Saturdays and Mondays only: 13, 15, 20, 22, 27, 29 March.
  assert.deepEqual(
    [...new Set(Object.values(tasks).map((x) => x.date))].sort(),
    ["2027-03-13", "2027-03-15", "2027-03-20", "2027-03-22", "2027-03-27", "2027-03-29"],
  );
  assert.equal(find("2027-03-13", "America/New_York")![0], "2027-03-13T14:00:00Z");
  assert.equal(find("2027-03-15", "America/New_York")![0], "2027-03-15T13:00:00Z");
  assert.equal(find("2027-03-15", "America/New_York")![1].gmtOffset, -14400);
  assert.equal(find("2027-03-27", "Europe/Berlin")![0], "2027-03-27T08:00:00Z");
  assert.equal(find("2027-03-29", "Europe/Berlin")![0], "2027-03-29T07:00:00Z");
  assert.equal(find("2027-03-29", "Europe/London")![1].gmtOffset, 3600);
  assert.equal(find("2027-03-27", "Europe/London")![1].gmtOffset, 0);
});
