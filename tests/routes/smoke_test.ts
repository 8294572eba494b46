import assert from "node:assert/strict";
import { callJson, seedTenant } from "../harness.ts";

Deno.test("a seeded tenant can call an authenticated route", async () => {
  const t = await seedTenant();
  const r = await callJson("GET", "/service/v1/contract/owner/0xabc", { headers: t.chainHeaders });
  assert.equal(r.status, 200);
  assert.equal(r.body.code, 0);
  assert.deepEqual(r.body.data.contracts, []);
});
