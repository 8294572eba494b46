import assert from "node:assert/strict";
import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";
import { call, callJson } from "../../harness.ts";
import { assertDeclaredResponse } from "../../response_schema.ts";
import { exampleOf, operationIdOf } from "../../../routes/openapi.ts";

Deno.test("the response check fails a handler that drifts from its declared schema", async () => {
  const app = new OpenAPIHono();
  const route = createRoute({
    method: "get",
    path: "/thing/{id}",
    responses: {
      200: {
        description: "ok",
        content: { "application/json": { schema: z.object({ id: z.string(), n: z.number() }) } },
      },
    },
  });
  let body: unknown = { id: "a", n: 1 };
  // deno-lint-ignore no-explicit-any
  app.openapi(route, (c) => c.json(body as any, 200));
  app.get("/undeclared-status", (c) => c.json({}, 201));
  const get = async (path: string) => {
    const res = await app.request(path);
    await assertDeclaredResponse(app, { method: "GET", path }, res);
  };
  await get("/thing/1");
  body = { id: "a", n: "1" };
  await assert.rejects(() => get("/thing/1"), /GET \/thing\/\{id\} 200 does not match.*n:/);
  body = { id: "a" };
  await assert.rejects(() => get("/thing/1"), /n: /);
});

Deno.test("GET /openapi.json: every operation has an id, security, family headers and errors", async () => {
  const { status, body: doc } = await callJson("GET", "/openapi.json");
  assert.equal(status, 200);
  const ids = new Set<string>();
  for (const [path, item] of Object.entries<Record<string, Record<string, unknown>>>(doc.paths)) {
    for (const [method, op] of Object.entries<Record<string, unknown>>(item)) {
      const label = `${method} ${path}`;
      assert.equal(typeof op.operationId, "string", label);
      assert.ok(!ids.has(op.operationId as string), `duplicate id ${op.operationId}`);
      ids.add(op.operationId as string);
      assert.ok(Array.isArray(op.security), label);
      for (const req of op.security as Record<string, unknown>[]) {
        for (const name of Object.keys(req)) assert.ok(doc.components.securitySchemes[name]);
      }
      // deno-lint-ignore no-explicit-any
      const headers = ((op.parameters ?? []) as any[]).filter((p) => p.in === "header")
        .map((p) => p.name.toLowerCase());
      if (path.startsWith("/service/v1/")) {
        assert.ok(headers.includes("x-network") && headers.includes("x-appid"), label);
        assert.deepEqual(op.security, [{ accessToken: [] }]);
      }
      if (path.startsWith("/otp/")) assert.ok(headers.includes("topic"), label);
      const responses = op.responses as Record<string, Record<string, unknown>>;
      if (path.startsWith("/items/")) {
        assert.deepEqual(op.security, [{ apiKey: [] }]);
        for (const s of ["400", "401", "403", "404", "500", "503"]) assert.ok(responses[s], label);
      }
      if (path.startsWith("/admin/")) assert.ok(responses["401"], label);
      for (const [code, res] of Object.entries(responses)) {
        if (code === "429" || code === "503") {
          // deno-lint-ignore no-explicit-any
          assert.ok((res as any).headers?.["Retry-After"], `${label} ${code}`);
        }
      }
    }
  }
  assert.ok(ids.has("getMetrics"));
  assert.equal(
    doc.paths["/otp/sms"].post.responses["429"].content["application/json"].example.error.code,
    "SMS_LIMIT_EXCEEDED",
  );
});

Deno.test("OpenAPI: every error a push operation declares has its family's body; Topic is required; credentials have an example", async () => {
  const { body: doc } = await callJson("GET", "/openapi.json");
  let pushOperations = 0;
  for (const [path, item] of Object.entries<Record<string, Record<string, unknown>>>(doc.paths)) {
    const push = path.startsWith("/push/") || path.startsWith("/admin/v1/push/");
    for (const [method, op] of Object.entries<Record<string, unknown>>(item)) {
      const responses = op.responses as Record<string, { content?: Record<string, unknown> }>;
      for (const [status, res] of Object.entries(responses)) {
        if (Number(status) < 400) continue;
        // deno-lint-ignore no-explicit-any
        const media = res.content?.["application/json"] as any;
        assert.ok(media?.schema, `${method} ${path} ${status} has a body schema`);
        if (push) {
          const family = path.startsWith("/push/") ? "PushError" : "AdminError";
          assert.equal(media.schema.$ref, `#/components/schemas/${family}`, `${method} ${path}`);
          assert.ok(media.example?.error, `${method} ${path} ${status} has an example`);
        }
      }
      if (push) pushOperations++;
      if (path.startsWith("/otp/")) {
        // deno-lint-ignore no-explicit-any
        const topic = (op.parameters as any[]).find((p) => p.name.toLowerCase() === "topic");
        assert.equal(topic.required, true, `${method} ${path}: a missing Topic is refused`);
      }
    }
  }
  assert.ok(pushOperations >= 12);
  assert.deepEqual(
    doc.paths["/push/campaigns"].post.responses["409"].content["application/json"].example,
    { error: { reason: "conflict with the current state" } },
  );
  const put = doc.paths["/admin/v1/push/apps/{appid}/credentials"].put;
  const example = put.requestBody.content["application/json"].example;
  assert.equal(example.fcm.serviceAccount.type, "service_account");
  assert.match(example.apns.teamId, /^[A-Z0-9]{10}$/);
  assert.equal(typeof example.apns.production, "boolean");
});

Deno.test("operation ids and schema-derived examples", () => {
  assert.equal(
    operationIdOf("post", "/service/v1/nft/{contract}/tokens/{tokenId}"),
    "postServiceV1NftByContractTokensByTokenId",
  );
  const doc = { components: { schemas: { N: { type: "integer", minimum: 5 } } } };
  assert.deepEqual(
    exampleOf({
      type: "object",
      properties: {
        n: { $ref: "#/components/schemas/N" },
        e: { enum: ["b", "c"] },
        s: { type: "string", minLength: 8, maxLength: 10 },
        list: { type: "array", items: { type: "boolean" }, minItems: 2 },
        at: { type: "string", format: "date-time" },
      },
    }, doc),
    {
      n: 5,
      e: "b",
      s: "stringxx",
      list: [true, true],
      at: "2026-05-01T12:00:00.000Z",
    },
  );
});

Deno.test("/docs is Swagger UI from assets the app serves itself", async () => {
  const page = await call("GET", "/docs");
  const html = await page.text();
  assert.equal(page.status, 200);
  assert.doesNotMatch(html, /https?:\/\/(?!localhost)[^"]*\.(js|css)/, "no CDN asset");
  const assets = [...html.matchAll(/(?:src|href)="(\/docs\/assets\/[^"]+)"/g)].map((m) => m[1]);
  assert.deepEqual(assets.sort(), [
    "/docs/assets/init.js",
    "/docs/assets/swagger-ui-bundle.js",
    "/docs/assets/swagger-ui.css",
  ]);
  for (const path of assets) {
    const res = await call("GET", path);
    const text = await res.text();
    assert.equal(res.status, 200, path);
    assert.equal(Number(res.headers.get("content-length")), new TextEncoder().encode(text).length);
  }
  const bundle = await (await call("GET", "/docs/assets/swagger-ui-bundle.js")).text();
  assert.match(bundle, /SwaggerUIBundle/);
  const init = await (await call("GET", "/docs/assets/init.js")).text();
  assert.match(init, /url: "\/openapi\.json"/);
});
