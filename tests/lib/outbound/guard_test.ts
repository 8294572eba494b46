import assert from "node:assert/strict";
import { assertOutboundUrl, isPrivateHost } from "../../../lib/outbound/guard.ts";
import { createOutbound, OutboundRefused } from "../../../lib/outbound/mod.ts";

const refused = [
  "http://127.0.0.1/",
  "http://127.1.2.3:8080/",
  "http://localhost/",
  "http://api.localhost/",
  "http://metadata.google.internal/",
  "http://printer.local/",
  "http://10.0.0.1/",
  "http://172.16.5.4/",
  "http://172.31.255.255/",
  "http://192.168.1.1/",
  "http://169.254.169.254/latest/meta-data",
  "http://100.64.0.1/",
  "http://0.0.0.0/",
  "http://224.0.0.1/",
  "http://[::1]/",
  "http://[::]/",
  "http://[::ffff:127.0.0.1]/",
  "http://[::ffff:7f00:1]/",
  "http://[::ffff:169.254.169.254]/",
  "http://[::127.0.0.1]/",
  "http://[64:ff9b::7f00:1]/",
  "http://[2002:7f00:1::]/",
  "http://[::ffff:0:7f00:1]/", // IPv4-translated 127.0.0.1
  "http://[::ffff:0:a00:1]/",
  "http://[::ffff:0:808:808]/", // the whole IPv4-translated ::ffff:0:0:0/96
  "http://[64:ff9b:1::7f00:1]/", // local-use NAT64 64:ff9b:1::/48
  "http://[64:ff9b:1::808:808]/",
  "http://[64:ff9b::a00:1]/",
  "http://[2001::1]/", // Teredo
  "http://[2001:db8::1]/", // documentation
  "http://[::8.8.8.8]/", // deprecated IPv4-compatible
  "http://[ff02::1]/",
  "http://255.255.255.255/",
  "http://240.0.0.1/",
  "http://[fd00::1]/",
  "http://[fe80::1]/",
  "http://2130706433/", // 127.0.0.1 as one number; the URL parser normalises it
  "http://0x7f.1/",
  "http://017700000001/",
];
const allowed = [
  "https://example.com/callback",
  "http://93.184.216.34/",
  "http://[2606:4700:4700::1111]/",
  "http://[::ffff:8.8.8.8]/",
  "http://[64:ff9b::808:808]/", // well-known NAT64 form of a public address
  "https://172.32.0.1/",
  "https://game.example.local.example.com/",
];

Deno.test("guard: every private spelling is refused, public targets pass", () => {
  for (const url of refused) {
    assert.throws(() => assertOutboundUrl(url, false), OutboundRefused, url);
    assert.doesNotThrow(() => assertOutboundUrl(url, true), url);
  }
  for (const url of allowed) assert.doesNotThrow(() => assertOutboundUrl(url, false), url);
});

Deno.test("guard: only http(s) without credentials", () => {
  for (const url of ["ftp://example.com/", "file:///etc/passwd", "gopher://x/", "not a url"]) {
    assert.throws(() => assertOutboundUrl(url, true), OutboundRefused, url);
  }
  assert.throws(() => assertOutboundUrl("https://u:p@example.com/", true), OutboundRefused);
});

Deno.test("guard: unparseable IPv6 literals are refused", () => {
  for (const host of ["[1::2::3]", "[12345::]"]) assert.equal(isPrivateHost(host), true, host);
  assert.equal(isPrivateHost("[zz::1]"), true, "an unparseable IPv6 literal is refused");
});

Deno.test("outbound: a refused target never reaches fetch", async () => {
  let called = 0;
  const outbound = createOutbound({
    allowPrivate: false,
    defaultTimeoutMs: 1000,
    fetch: () => {
      called++;
      return Promise.resolve(new Response("ok"));
    },
  });
  await assert.rejects(outbound.send({ url: "http://[::ffff:127.0.0.1]:9/" }), OutboundRefused);
  assert.equal(called, 0);
  const ok = await outbound.send({ url: "https://example.com/hook", body: "{}" });
  assert.equal(ok.status, 200);
  assert.equal(called, 1);
});

Deno.test("outbound: an oversized answer is refused without buffering it all", async () => {
  const outbound = createOutbound({
    allowPrivate: true,
    defaultTimeoutMs: 5000,
    fetch: () => {
      let sent = 0;
      const chunk = new Uint8Array(64 * 1024).fill(120);
      return Promise.resolve(
        new Response(
          new ReadableStream({
            pull(ctrl) {
              if (sent++ < 64) ctrl.enqueue(chunk);
              else ctrl.close();
            },
          }),
        ),
      );
    },
  });
  await assert.rejects(
    outbound.send({ url: "http://127.0.0.1:9/" }),
    (e: Error) => /larger than/.test(e.message),
  );
  const small = createOutbound({
    allowPrivate: true,
    defaultTimeoutMs: 5000,
    fetch: () => Promise.resolve(new Response("héllo")),
  });
  assert.equal((await small.send({ url: "http://127.0.0.1:9/" })).text, "héllo");
});

Deno.test("outbound: a name that resolves to a private address is refused", async () => {
  const lookups: string[] = [];
  const zone: Record<string, string[]> = {
    "evil.example": ["93.184.216.34", "127.0.0.1"],
    "meta.example": ["::ffff:a9fe:a9fe"],
    "good.example": ["93.184.216.34"],
  };
  let fetched = 0;
  const outbound = createOutbound({
    allowPrivate: false,
    defaultTimeoutMs: 1000,
    resolve: (host) => {
      lookups.push(host);
      return host in zone ? Promise.resolve(zone[host]) : Promise.reject(new Error("NXDOMAIN"));
    },
    fetch: () => {
      fetched++;
      return Promise.resolve(new Response("ok"));
    },
  });
  await assert.rejects(outbound.send({ url: "https://evil.example/hook" }), OutboundRefused);
  await assert.rejects(outbound.assertPublicHost("meta.example"), OutboundRefused);
  await assert.rejects(outbound.assertPublicHost("10.1.2.3"), OutboundRefused);
  assert.equal(fetched, 0);
  assert.equal((await outbound.send({ url: "https://good.example/hook" })).status, 200);
  // A name DNS cannot answer is left to the connection (which fails by itself if it cannot resolve).
  await outbound.assertPublicHost("hosts-file-only");
  assert.deepEqual(lookups, ["evil.example", "meta.example", "good.example", "hosts-file-only"]);

  const permissive = createOutbound({
    allowPrivate: true,
    defaultTimeoutMs: 1000,
    resolve: () => Promise.reject(new Error("must not be asked")),
  });
  await permissive.assertPublicHost("evil.example");
});
