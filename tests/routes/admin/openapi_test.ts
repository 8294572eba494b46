import assert from "node:assert/strict";
import { callJson } from "../../harness.ts";

Deno.test("the OpenAPI document lists every admin read and action", async () => {
  const doc = await callJson("GET", "/openapi.json");
  assert.equal(doc.status, 200);
  const paths = doc.body.paths as Record<string, Record<string, unknown>>;
  const want: [string, string][] = [
    ["get", "/admin/v1/games"],
    ["get", "/admin/v1/games/{gameIndex}"],
    ["get", "/admin/v1/games/{gameIndex}/apps"],
    ["get", "/admin/v1/games/{gameIndex}/apps/{appid}"],
    ["post", "/admin/v1/games/{gameIndex}/apps/{appid}/rotate-secret"],
    ["get", "/admin/v1/games/{gameIndex}/api-keys"],
    ["get", "/admin/v1/games/{gameIndex}/api-keys/{keyId}"],
    ["get", "/admin/v1/games/{gameIndex}/chat-keys"],
    ["post", "/admin/v1/games/{gameIndex}/chat-keys/{gameKey}/rotate-secret"],
    ["get", "/admin/v1/games/{gameIndex}/tads/projects"],
    ["get", "/admin/v1/games/{gameIndex}/tads/projects/{projectKey}"],
    ["put", "/admin/v1/games/{gameIndex}/tads/projects/{projectKey}/words"],
    ["post", "/admin/v1/games/{gameIndex}/tads/projects/{projectKey}/rotate-secret"],
    ["post", "/admin/v1/games/{gameIndex}/tads/projects/{projectKey}/test"],
    ["get", "/admin/v1/games/{gameIndex}/item-endpoint/probes"],
    ["post", "/admin/v1/games/{gameIndex}/item-endpoint/probe"],
    ["get", "/admin/v1/games/{gameIndex}/item-requests"],
    ["get", "/admin/v1/games/{gameIndex}/item-requests/{transactionId}"],
    ["post", "/admin/v1/games/{gameIndex}/item-requests/{transactionId}/retry"],
    ["get", "/admin/v1/games/{gameIndex}/cpa"],
    ["get", "/admin/v1/games/{gameIndex}/contracts"],
    ["get", "/admin/v1/games/{gameIndex}/transactions"],
    ["get", "/admin/v1/games/{gameIndex}/transactions/{requestId}"],
    ["get", "/admin/v1/games/{gameIndex}/otp-topics"],
    ["get", "/admin/v1/games/{gameIndex}/push/campaigns"],
    ["get", "/admin/v1/games/{gameIndex}/push/campaigns/{id}"],
    ["get", "/admin/v1/games/{gameIndex}/push/targetings"],
    ["get", "/admin/v1/games/{gameIndex}/push/devices"],
    ["get", "/admin/v1/games/{gameIndex}/webhook-secret"],
    ["post", "/admin/v1/games/{gameIndex}/webhook-secret/reveal"],
  ];
  for (const [method, path] of want) {
    assert.ok(paths[path]?.[method], `${method.toUpperCase()} ${path} is documented`);
  }
  const list = paths["/admin/v1/games/{gameIndex}/apps"].get as {
    parameters: { name: string }[];
  };
  assert.deepEqual(list.parameters.map((p) => p.name).sort(), ["cursor", "gameIndex", "limit"]);
});
