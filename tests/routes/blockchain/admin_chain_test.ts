import assert from "node:assert/strict";
import { admin, callJson, seedTenant } from "../../harness.ts";
import { chainEnv, chainTestOptions } from "../../lib/chain/anvil.ts";

Deno.test({
  ...chainTestOptions,
  name: "admin wallets and contracts: generated keys are never returned, inputs are checked",
  async fn() {
    const { services } = await chainEnv();
    const tenant = await seedTenant("admin chain game");
    const created = await admin("POST", "/admin/v1/wallets", { gameIndex: tenant.gameIndex });
    assert.equal(created.status, 201);
    assert.deepEqual(Object.keys(created.body), ["address", "xplaAddress"]);
    assert.match(created.body.address, /^0x[0-9a-fA-F]{40}$/);
    // The same 20 bytes as an xpla1… address (for a known key below: as xpla.js derives it).
    assert.match(created.body.xplaAddress, /^xpla1[02-9ac-hj-np-z]{38}$/);
    assert.equal(await services.kms.holds(tenant.gameIndex, created.body.address), true);

    const badKey = await admin("POST", "/admin/v1/wallets", {
      gameIndex: tenant.gameIndex,
      privateKey: "0x1234",
    });
    assert.equal(badKey.status, 400);
    assert.equal(badKey.body.error.code, "VALIDATION_FAILED");
    const noGame = await admin("POST", "/admin/v1/wallets", { gameIndex: 999999 });
    assert.equal(noGame.status, 404);
    const key = "0x" + "11".repeat(32);
    const imported = await admin("POST", "/admin/v1/wallets", {
      gameIndex: tenant.gameIndex,
      privateKey: key,
    });
    assert.equal(imported.status, 201);
    assert.deepEqual(imported.body, {
      address: "0x19E7E376E7C213B7E7e7e46cc70A5dD086DAff2A",
      xplaAddress: "xpla1r8n7xah8cgfm0el8u3kvwzja6zrd4le2zdye8x",
    });
    const again = await admin("POST", "/admin/v1/wallets", {
      gameIndex: tenant.gameIndex,
      privateKey: key,
    });
    assert.equal(again.status, 409);
    assert.ok(!JSON.stringify(again.body).includes("11".repeat(32)));

    const registered = await admin("POST", "/admin/v1/contracts", {
      network: "polygon",
      address: "0x" + "ab".repeat(20),
      type: "token",
      name: "Gold",
      owner: created.body.address,
      gameIndex: tenant.gameIndex,
      symbolUri: "https://img.example/g.png",
    });
    assert.equal(registered.status, 201);
    assert.equal(registered.body.address, "0xABaBaBaBABabABabAbAbABAbABabababaBaBABaB");
    const badType = await admin("POST", "/admin/v1/contracts", {
      network: "polygon",
      address: "0x" + "cd".repeat(20),
      type: "dragon",
      name: "x",
      owner: created.body.address,
      gameIndex: tenant.gameIndex,
    });
    assert.equal(badType.status, 400);
    const badAddress = await admin("POST", "/admin/v1/contracts", {
      network: "polygon",
      address: "0x12",
      type: "nft",
      name: "x",
      owner: created.body.address,
      gameIndex: tenant.gameIndex,
    });
    assert.equal(badAddress.status, 400);
    assert.equal(badAddress.body.error.message, "address is not a valid address");

    const stranger = "0x" + "99".repeat(20);
    const notHeld = await admin("POST", "/admin/v1/contracts/deploy", {
      network: "polygon",
      gameIndex: tenant.gameIndex,
      type: "nft",
      from: stranger,
      name: "N",
    });
    assert.equal(notHeld.body.error.code, "KEY_NOT_HELD");
    const hugeSupply = await admin("POST", "/admin/v1/contracts/deploy", {
      network: "polygon",
      gameIndex: tenant.gameIndex,
      type: "token",
      from: created.body.address,
      name: "Gold",
      initialSupply: "9".repeat(78),
    });
    assert.equal(hugeSupply.status, 400, JSON.stringify(hugeSupply.body));
    assert.equal(hugeSupply.body.error.code, "VALIDATION_FAILED");

    const meta = await callJson("GET", `/metadata/polygon/0x${"ab".repeat(20)}/1`);
    assert.equal(meta.status, 404);
    assert.equal(meta.body.error.code, "METADATA_NOT_FOUND");
  },
});
