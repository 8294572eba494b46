/** Every authentication failure: blockchain tokens and headers, API keys, admin token. */
import assert from "node:assert/strict";
import { SignJWT } from "jose";
import { admin, call, callJson, seedTenant, testEnv } from "../harness.ts";
import { verifyApiKey } from "../../lib/auth/api_keys.ts";
import { generatePrivateJwk, loadSigningKey } from "../../lib/auth/keys.ts";

const OWNER = "/service/v1/contract/owner/0x0000000000000000000000000000000000000001";

Deno.test("auth-token: good credentials give ES256 tokens with kid verifiable by the JWKS", async () => {
  const t = await seedTenant();
  const jwks = await callJson("GET", "/.well-known/jwks.json");
  assert.equal(jwks.status, 200);
  const [key] = jwks.body.keys;
  assert.equal(key.kty, "EC");
  assert.equal(key.d, undefined, "no private part is published");
  const header = JSON.parse(atob(t.accessToken.split(".")[0]));
  assert.equal(header.alg, "ES256");
  assert.equal(header.kid, key.kid);
  const payload = JSON.parse(
    atob(t.accessToken.split(".")[1].replace(/-/g, "+").replace(/_/g, "/")),
  );
  assert.equal(payload.exp - payload.iat, 24 * 3600);
});

Deno.test("auth-token: wrong secret, unknown client and missing fields are refused", async () => {
  const t = await seedTenant();
  const wrong = await callJson("POST", "/v2/auth-token", {
    json: { clientId: t.clientId, clientSecret: t.clientSecret + "x" },
  });
  assert.equal(wrong.status, 401);
  assert.deepEqual(wrong.body, { code: 1004, message: "clientId or clientSecret is wrong" });
  const unknown = await callJson("POST", "/v2/auth-token", {
    json: { clientId: "cli_nobody", clientSecret: t.clientSecret },
  });
  assert.equal(unknown.status, 401);
  assert.equal(unknown.body.code, 1004);
  const missing = await callJson("POST", "/v2/auth-token", { json: { clientId: t.clientId } });
  assert.equal(missing.status, 400);
  assert.deepEqual(missing.body, { code: 1000, message: "clientSecret is required" });
});

Deno.test("refresh-token: gives a new pair once; reuse and access tokens are refused", async () => {
  const t = await seedTenant();
  const first = await callJson("POST", "/v2/refresh-token", {
    json: { refreshToken: t.refreshToken },
  });
  assert.equal(first.status, 200);
  assert.equal(first.body.code, 0);
  assert.ok(first.body.data.accessToken && first.body.data.refreshToken);
  const ok = await callJson("GET", OWNER, {
    headers: { ...t.chainHeaders, authorization: `Bearer ${first.body.data.accessToken}` },
  });
  assert.equal(ok.status, 200);
  const again = await callJson("POST", "/v2/refresh-token", {
    json: { refreshToken: t.refreshToken },
  });
  assert.equal(again.status, 401);
  assert.equal(again.body.code, 1005);
  const wrongUse = await callJson("POST", "/v2/refresh-token", {
    json: { refreshToken: t.accessToken },
  });
  assert.equal(wrongUse.status, 401);
  assert.equal(wrongUse.body.code, 1002);
});

Deno.test("service routes: missing, malformed, tampered, foreign and expired tokens", async () => {
  const t = await seedTenant();
  const { clock } = await testEnv();
  const h = t.chainHeaders;
  const missing = await callJson("GET", OWNER, { headers: { ...h, authorization: "" } });
  assert.deepEqual([missing.status, missing.body.code], [401, 1001]);
  const basic = await callJson("GET", OWNER, { headers: { ...h, authorization: "Basic abc" } });
  assert.deepEqual([basic.status, basic.body.code], [401, 1001]);
  const garbage = await callJson("GET", OWNER, {
    headers: { ...h, authorization: "Bearer abc.def.ghi" },
  });
  assert.deepEqual([garbage.status, garbage.body.code], [401, 1002]);
  // Tampered: change the payload's app claim, keep the signature.
  const [head, body, sig] = t.accessToken.split(".");
  const claims = JSON.parse(atob(body.replace(/-/g, "+").replace(/_/g, "/")));
  claims.app = "someone-else";
  const forged = btoa(JSON.stringify(claims)).replace(/\+/g, "-").replace(/\//g, "_").replace(
    /=+$/,
    "",
  );
  const tampered = await callJson("GET", OWNER, {
    headers: { ...h, authorization: `Bearer ${head}.${forged}.${sig}` },
  });
  assert.deepEqual([tampered.status, tampered.body.code], [401, 1002]);
  // Signed by a key that is not ours.
  const other = await loadSigningKey(await generatePrivateJwk());
  const foreign = await new SignJWT({ app: t.appid, gid: t.gameIndex, use: "access" })
    .setProtectedHeader({ alg: "ES256", kid: other.kid }).setIssuer("game-platform")
    .setSubject(t.clientId).setIssuedAt().setExpirationTime("1h").sign(other.privateKey);
  const foreignRes = await callJson("GET", OWNER, {
    headers: { ...h, authorization: `Bearer ${foreign}` },
  });
  assert.deepEqual([foreignRes.status, foreignRes.body.code], [401, 1002]);
  // Expired: 24 hours and a minute later.
  clock.advance(24 * 3600 * 1000 + 60_000);
  try {
    const expired = await callJson("GET", OWNER, { headers: h });
    assert.deepEqual(expired.body, { code: 1003, message: "token expired" });
    assert.equal(expired.status, 401);
  } finally {
    clock.reset();
  }
});

Deno.test("service routes: x-network and x-appid are enforced", async () => {
  const t = await seedTenant();
  const h = t.chainHeaders;
  for (const network of ["polygon", "ploygon", "xpla", "POLYGON"]) {
    const r = await callJson("GET", OWNER, { headers: { ...h, "x-network": network } });
    assert.equal(r.status, 200, network);
  }
  for (const network of ["", "ethereum", "poly"]) {
    const r = await callJson("GET", OWNER, { headers: { ...h, "x-network": network } });
    assert.deepEqual([r.status, r.body.code], [400, 1006], `x-network ${JSON.stringify(network)}`);
  }
  const other = await seedTenant();
  const wrongApp = await callJson("GET", OWNER, { headers: { ...h, "x-appid": other.appid } });
  assert.deepEqual([wrongApp.status, wrongApp.body.code], [403, 1007]);
  const noApp = await callJson("GET", OWNER, { headers: { ...h, "x-appid": "" } });
  assert.deepEqual([noApp.status, noApp.body.code], [403, 1007]);
});

Deno.test("api keys: verified with scope; revoked at once; unscoped and unknown refused", async () => {
  const { services } = await testEnv();
  const t = await seedTenant();
  const key = await t.apiKey(["otp", "push"]);
  const principal = await verifyApiKey(services.db, services.signingKey, key.apiKey, "otp");
  assert.deepEqual(principal, {
    keyId: key.keyId,
    gameIndex: t.gameIndex,
    scopes: ["otp", "push"],
  });
  await assert.rejects(
    verifyApiKey(services.db, services.signingKey, key.apiKey, "items"),
    (e: { kind?: string; code?: string }) => e.kind === "forbidden" && e.code === "SCOPE_MISSING",
  );
  await assert.rejects(
    verifyApiKey(services.db, services.signingKey, key.apiKey.slice(0, -2) + "xx", "otp"),
    (e: { kind?: string }) => e.kind === "unauthorized",
  );
  const revoked = await admin("DELETE", `/admin/v1/api-keys/${key.keyId}`);
  assert.equal(revoked.status, 204);
  await assert.rejects(
    verifyApiKey(services.db, services.signingKey, key.apiKey, "otp"),
    (e: { kind?: string; code?: string }) =>
      e.kind === "unauthorized" && e.code === "API_KEY_REVOKED",
  );
  const again = await admin("DELETE", `/admin/v1/api-keys/${key.keyId}`);
  assert.equal(again.status, 204, "revoking twice is harmless");
  const unknown = await admin("DELETE", "/admin/v1/api-keys/key_nope");
  assert.equal(unknown.status, 404);
  assert.equal(unknown.body.error.code, "API_KEY_NOT_FOUND");
});

Deno.test("api keys are stored only as hashes", async () => {
  const { services } = await testEnv();
  const t = await seedTenant();
  const key = await t.apiKey(["items"]);
  const rows = await services.db.query<Record<string, unknown>>(
    "select * from api_keys where key_id = $1",
    [key.keyId],
  );
  assert.equal(rows.length, 1);
  assert.ok(!JSON.stringify(rows).includes(key.apiKey));
  const apps = await services.db.query<Record<string, unknown>>(
    "select * from apps where appid = $1",
    [t.appid],
  );
  assert.ok(!JSON.stringify(apps).includes(t.clientSecret));
});

Deno.test("admin: missing, wrong-scheme and wrong tokens are refused", async () => {
  for (const authorization of [undefined, "Basic x", "Bearer wrong-token-wrong-token", "Bearer"]) {
    const r = await callJson("POST", "/admin/v1/games", {
      json: { name: "x" },
      headers: authorization ? { authorization } : {},
    });
    assert.equal(r.status, 401, String(authorization));
    assert.equal(r.body.error.code, "UNAUTHORIZED");
  }
  const res = await call("GET", "/admin/v1/anything");
  assert.equal(res.status, 401, "admin paths are protected before routing");
  await res.body?.cancel();
});

Deno.test("admin: validation, unknown game, duplicate appid", async () => {
  const noName = await admin("POST", "/admin/v1/games", {});
  assert.equal(noName.status, 400);
  assert.deepEqual(noName.body, {
    error: { code: "VALIDATION_FAILED", message: "name is required" },
  });
  const badIndex = await admin("POST", "/admin/v1/games/abc/apps", { appid: "x" });
  assert.equal(badIndex.status, 400);
  const noGame = await admin("POST", "/admin/v1/games/999999/apps", { appid: "x" });
  assert.equal(noGame.status, 404);
  assert.equal(noGame.body.error.code, "GAME_NOT_FOUND");
  const t = await seedTenant();
  const dup = await admin("POST", `/admin/v1/games/${t.gameIndex}/apps`, { appid: t.appid });
  assert.equal(dup.status, 409);
  assert.equal(dup.body.error.code, "APP_EXISTS");
  const badScope = await admin("POST", `/admin/v1/games/${t.gameIndex}/api-keys`, {
    scopes: ["root"],
  });
  assert.equal(badScope.status, 400);
  assert.match(badScope.body.error.message, /^scopes\[0\]/);
  const noKeyGame = await admin("POST", "/admin/v1/games/999999/api-keys", { scopes: ["otp"] });
  assert.equal(noKeyGame.status, 404);
});

Deno.test("api keys: authenticated by hash; a key of a signing key no longer listed is refused", async () => {
  const { services } = await testEnv();
  const t = await seedTenant();
  const key = await t.apiKey(["items"]);
  const ok = await verifyApiKey(services.db, services.signingKey, key.apiKey, "items");
  assert.equal(ok.keyId, key.keyId);
  const other = await loadSigningKey(await generatePrivateJwk());
  await assert.rejects(
    verifyApiKey(services.db, other, key.apiKey, "items"),
    (e: { code?: string }) => e.code === "INVALID_API_KEY",
  );
  // A token with the right key id and signing key id but other bytes does not match the hash.
  const [h, p] = key.apiKey.split(".");
  await assert.rejects(
    verifyApiKey(services.db, services.signingKey, `${h}.${p}.AAAA`, "items"),
    (e: { code?: string }) => e.code === "INVALID_API_KEY",
  );
});
