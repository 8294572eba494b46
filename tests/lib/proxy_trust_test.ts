import assert from "node:assert/strict";
import { cameOverHttps, clientAddress, parseTrustedProxies } from "../../lib/proxy_trust.ts";
import { ConfigError, loadConfig } from "../../lib/config.ts";

function origin(peer: string | undefined, headers: Record<string, string> = {}, url = "http://x/") {
  return { peer, header: (name: string) => headers[name], url };
}

Deno.test("client address: the peer unless it is a trusted proxy; CF-Connecting-IP without a peer", () => {
  const spoof = { "x-forwarded-for": "203.0.113.9", "cf-connecting-ip": "203.0.113.8" };
  assert.equal(clientAddress(origin("198.51.100.7", spoof), undefined), "198.51.100.7");
  assert.equal(clientAddress(origin("198.51.100.7", spoof), "10.0.0.0/8"), "198.51.100.7");
  assert.equal(clientAddress(origin(undefined, spoof), "10.0.0.0/8"), "203.0.113.8");
  assert.equal(clientAddress(origin(undefined), undefined), "unknown");
});

Deno.test("client address: X-Forwarded-For read from the right up to the first untrusted hop", () => {
  const trusted = "10.0.0.0/8, 192.0.2.1, 2001:db8::/32";
  const via = (xff: string, peer = "10.1.2.3") =>
    clientAddress(origin(peer, { "x-forwarded-for": xff }), trusted);
  // A spoofed first hop is ignored: the trusted proxy appended the address it saw.
  assert.equal(via("1.1.1.1, 203.0.113.5"), "203.0.113.5");
  // Chains of trusted proxies are walked through.
  assert.equal(via("1.1.1.1, 203.0.113.5, 192.0.2.1, 10.9.9.9"), "203.0.113.5");
  assert.equal(via("203.0.113.5", "2001:db8::1"), "203.0.113.5");
  // Every hop trusted: the leftmost one.
  assert.equal(via("10.0.0.1, 10.0.0.2"), "10.0.0.1");
  // Garbage stops the walk at the last address a trusted proxy vouched for.
  assert.equal(via("203.0.113.5, junk"), "10.1.2.3");
  assert.equal(via("junk, 203.0.113.6"), "203.0.113.6");
  assert.equal(via(""), "10.1.2.3");
  // An IPv4-mapped peer is its IPv4 address.
  assert.equal(via("203.0.113.7", "::ffff:10.1.2.3"), "203.0.113.7");
});

Deno.test("HTTPS: the URL scheme, or a trusted proxy's X-Forwarded-Proto", () => {
  const proto = { "x-forwarded-proto": "https" };
  assert.equal(cameOverHttps(origin(undefined, {}, "https://x/"), undefined), true);
  assert.equal(cameOverHttps(origin("10.0.0.1", proto), undefined), false);
  assert.equal(cameOverHttps(origin("10.0.0.1", proto), "10.0.0.0/8"), true);
  assert.equal(cameOverHttps(origin("198.51.100.1", proto), "10.0.0.0/8"), false);
  assert.equal(
    cameOverHttps(origin("10.0.0.1", { "x-forwarded-proto": "http" }), "10.0.0.0/8"),
    false,
  );
});

Deno.test("TRUSTED_PROXIES: addresses and CIDR ranges; anything else refused at start-up", () => {
  assert.equal(parseTrustedProxies(" 127.0.0.1 , ::1, 10.0.0.0/8 ,fd00::/8").length, 4);
  for (
    const bad of ["10.0.0.0/33", "localhost", "10.0.0.1/8/1", "0x7f.1", "::1/129", "10.0.0.0/"]
  ) {
    assert.throws(() => parseTrustedProxies(bad), /TRUSTED_PROXIES/, bad);
    assert.throws(() => loadConfig({ TRUSTED_PROXIES: bad }), ConfigError);
  }
  assert.equal(loadConfig({ TRUSTED_PROXIES: "10.0.0.0/8" }).TRUSTED_PROXIES, "10.0.0.0/8");
});
