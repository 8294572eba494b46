import assert from "node:assert/strict";
import { Hono } from "hono";
import type { Result } from "hono/router";
import { TrieRouter } from "hono/router/trie-router";
import { MATCH_MEMO_SIZE, SegmentRouter } from "../../routes/router.ts";
import { createApp } from "../../routes/mod.ts";
import { testEnv } from "../harness.ts";

/** The same routes and middleware on a Hono app with the given router options. */
function build(options: ConstructorParameters<typeof Hono>[0]) {
  const app = new Hono(options);
  const trail: string[] = [];
  app.use("*", async (c, next) => {
    trail.push("first");
    await next();
    c.header("x-seen", "1");
  });
  app.get("/items/v1/requests/:id", (c) => c.text(`item ${c.req.param("id")}`));
  // The spec's pair that the fast router cannot hold together: this part uses the trie.
  app.get(
    "/service/v1/nft/contract/:contract/lock",
    (c) => c.text(`lock ${c.req.param("contract")}`),
  );
  app.get("/service/v1/nft/contract/owner", (c) => c.text("owner"));
  // Middleware registered after some parts exist, then routes of a new part.
  app.use("/*", async (_c, next) => {
    trail.push("second");
    await next();
  });
  app.use("/otp/*", async (_c, next) => {
    trail.push("otp");
    await next();
  });
  app.get("/otp/sms", (c) => c.text("otp"));
  app.post("/otp/sms", (c) => c.text("otp post"));
  app.get("/", (c) => c.text("root"));
  return { app, trail };
}

Deno.test("segment router: matches, parameters and middleware order are those of Hono's default router", async () => {
  const ours = build({ router: new SegmentRouter() });
  const reference = build({});
  const requests: [string, string][] = [
    ["GET", "/items/v1/requests/abc"],
    ["GET", "/items/v1/requests/a%20b"],
    ["GET", "/service/v1/nft/contract/0xabc/lock"],
    ["GET", "/service/v1/nft/contract/owner"],
    ["GET", "/otp/sms"],
    ["POST", "/otp/sms"],
    ["DELETE", "/otp/sms"],
    ["GET", "/"],
    ["GET", "/nope/x"],
    ["GET", "/items/v1/nope"],
  ];
  for (const [method, path] of requests) {
    const answer = async (x: ReturnType<typeof build>) => {
      x.trail.length = 0;
      const res = await x.app.request(path, { method });
      return {
        status: res.status,
        body: await res.text(),
        seen: res.headers.get("x-seen"),
        trail: [...x.trail],
      };
    };
    assert.deepEqual(await answer(ours), await answer(reference), `${method} ${path}`);
  }
  // Spot checks that the comparison is not vacuous.
  ours.trail.length = 0;
  assert.equal(await (await ours.app.request("/otp/sms")).text(), "otp");
  assert.deepEqual(ours.trail, ["first", "second", "otp"]);
  assert.equal((await ours.app.request("/nope/x")).status, 404);
});

Deno.test("segment router: a parameter as the first segment is refused when registered", () => {
  const app = new Hono({ router: new SegmentRouter() });
  assert.throws(() => app.get("/:tenant/x", (c) => c.text("x")), /first path segment/);
});

/** A match result as [route index, parameters] pairs, whichever format the router answered in. */
function matches(result: Result<number>): [number, Record<string, string>][] {
  const [handlers, stash] = result as [[number, Record<string, string | number>][], string[]?];
  return handlers.map(([index, params]) => [
    index,
    Object.fromEntries(
      Object.entries(params).map(([k, v]) => [k, stash ? stash[v as number] : v as string]),
    ),
  ]);
}

Deno.test("segment router: every route of the service matches as in Hono's trie router", async () => {
  const { services } = await testEnv();
  const routes = createApp(services).routes;
  const ours = new SegmentRouter<number>();
  const trie = new TrieRouter<number>();
  routes.forEach((r, i) => {
    ours.add(r.method, r.path, i);
    trie.add(r.method, r.path, i);
  });
  let checked = 0;
  for (const r of routes) {
    if (r.path.includes("*")) continue;
    const path = r.path.replace(/:(\w+)(\{[^}]*\})?\??/g, (_m, name) => `v-${name}`);
    const method = r.method === "ALL" ? "GET" : r.method;
    assert.deepEqual(matches(ours.match(method, path)), matches(trie.match(method, path)), path);
    checked++;
  }
  assert.ok(checked > 100, `${checked} routes checked`);
});

Deno.test("segment router: a trie part remembers its matches, bounded, with the same answers", () => {
  const ours = new SegmentRouter<string>();
  ours.add("GET", "/service/v1/nft/contract/:contract/lock", "lock");
  ours.add("GET", "/service/v1/nft/contract/owner", "owner");
  ours.add("GET", "/service/v1/tx/:id", "tx");
  const walks = { count: 0 };
  const original = TrieRouter.prototype.match;
  TrieRouter.prototype.match = function (this: TrieRouter<unknown>, method, path) {
    walks.count++;
    return original.call(this, method, path);
  };
  try {
    const first = ours.match("GET", "/service/v1/tx/a");
    assert.deepEqual(matches(first as Result<never>), [["tx", { id: "a" }]]);
    const before = walks.count;
    // The same path again is answered from memory, the same answer; another path walks the trie.
    assert.equal(ours.match("GET", "/service/v1/tx/a"), first);
    assert.equal(walks.count, before);
    assert.deepEqual(matches(ours.match("GET", "/service/v1/tx/b") as Result<never>), [[
      "tx",
      { id: "b" },
    ]]);
    assert.equal(walks.count, before + 1);
    assert.deepEqual(matches(ours.match("POST", "/service/v1/tx/a") as Result<never>), []);
    // Bounded: past MATCH_MEMO_SIZE distinct paths it starts over, answers unchanged.
    for (let i = 0; i < MATCH_MEMO_SIZE + 10; i++) ours.match("GET", `/service/v1/tx/${i}`);
    const again = walks.count;
    assert.deepEqual(matches(ours.match("GET", "/service/v1/tx/a") as Result<never>), [[
      "tx",
      { id: "a" },
    ]]);
    assert.equal(walks.count, again + 1);
  } finally {
    TrieRouter.prototype.match = original;
  }
});
