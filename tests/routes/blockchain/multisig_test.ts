import assert from "node:assert/strict";
import { callJson, seedTenant } from "../../harness.ts";

const PATHS = [
  "/core/v1/multisig",
  "/core/v1/multisig/tx",
  "/core/v1/multisig/tx/0x1111111111111111111111111111111111111111",
];

Deno.test("multi-signature endpoints answer 501 with code 1009, and only after authentication", async () => {
  const tenant = await seedTenant("multisig game");
  const body = { from: "0x1111111111111111111111111111111111111111", signers: [], threshold: 1 };
  for (const path of PATHS) {
    const anonymous = await callJson("POST", path, { json: body });
    assert.equal(anonymous.status, 401, path);
    assert.equal(anonymous.body.code, 1001, path);

    const res = await callJson("POST", path, { json: body, headers: tenant.chainHeaders });
    assert.equal(res.status, 501, `${path}: ${JSON.stringify(res.body)}`);
    assert.equal(res.body.code, 1009);
    assert.match(res.body.message, /not implemented/);
  }
});
