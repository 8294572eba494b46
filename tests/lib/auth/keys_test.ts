import assert from "node:assert/strict";
import { generatePrivateJwk, loadSigningKey } from "../../../lib/auth/keys.ts";
import { issueTokenPair, verifyAppToken } from "../../../lib/auth/tokens.ts";

const principal = { appid: "app", gameIndex: 1, clientId: "cli" };

Deno.test("keys: after a rotation, tokens of the previous key verify only while it is listed", async () => {
  const oldJwk = await generatePrivateJwk();
  const newJwk = await generatePrivateJwk();
  const oldKey = await loadSigningKey(oldJwk);
  const now = Date.now();
  const { accessToken } = await issueTokenPair(oldKey, principal, now);

  const rotated = await loadSigningKey(newJwk, JSON.stringify({ keys: oldKey.publicJwks }));
  const verified = await verifyAppToken(rotated, accessToken, "access", now);
  assert.equal(verified.appid, "app");
  assert.deepEqual(rotated.publicJwks.map((k) => k.kid), [rotated.kid, oldKey.kid]);
  assert.ok(rotated.publicJwks.every((k) => k.d === undefined), "no private part is published");

  // New tokens are signed with the new key and verify too.
  const fresh = await issueTokenPair(rotated, principal, now);
  assert.equal((await verifyAppToken(rotated, fresh.accessToken, "access", now)).appid, "app");

  const dropped = await loadSigningKey(newJwk);
  await assert.rejects(
    verifyAppToken(dropped, accessToken, "access", now),
    (e: { code?: string }) => e.code === "TOKEN_INVALID",
  );
});

Deno.test("keys: a private JWK pasted as a previous key keeps only its public part", async () => {
  const pasted = JSON.parse(await generatePrivateJwk());
  const key = await loadSigningKey(await generatePrivateJwk(), JSON.stringify([pasted]));
  assert.equal(key.publicJwks.length, 2);
  assert.equal(key.publicJwks[1].d, undefined);
  assert.equal(key.publicJwks[1].kid, pasted.kid);
});

Deno.test("keys: malformed settings are refused with the setting's name", async () => {
  await assert.rejects(loadSigningKey("{"), /JWT_PRIVATE_JWK is not valid JSON/);
  await assert.rejects(loadSigningKey('{"kty":"RSA"}'), /JWT_PRIVATE_JWK must be/);
  const jwk = await generatePrivateJwk();
  await assert.rejects(loadSigningKey(jwk, "[1]"), /JWT_PREVIOUS_PUBLIC_JWKS entry/);
  await assert.rejects(loadSigningKey(jwk, '{"nope":1}'), /JWT_PREVIOUS_PUBLIC_JWKS must be/);
});
