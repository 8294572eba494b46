/**
 * Robustness: every route (from GET /openapi.json, plus /docs) is sent hostile input — malformed
 * and non-object JSON, null and mistyped fields, huge and odd strings, wrong content types, an
 * oversized body, odd path and query values — with real credentials so validation is reached.
 * Every answer must be < 500 (503 only where a chain dependency is absent), JSON in the family's
 * envelope, free of stack traces and secrets, and carry X-Request-Id.
 */
import assert from "node:assert/strict";
import { admin, ADMIN_TOKEN, call, callJson, seedTenant, testEnv } from "../harness.ts";
import { encryptEcb } from "../../lib/crypto/aes_ecb.ts";
import { campaignBody } from "./push/fixture.ts";
import { blockchainCatalog } from "../../routes/blockchain/codes.ts";
import { chainEnv, chainTestOptions, deploy, fundedWallet } from "../lib/chain/anvil.ts";
import { xplaEnv } from "../lib/chain/xpla_env.ts";

// deno-lint-ignore no-explicit-any
type Schema = any;
type Body = Record<string, unknown> | unknown[];

interface Param {
  name: string;
  in: string;
  schema?: Schema;
}

interface RouteCase {
  method: string;
  path: string;
  params: Param[];
  schema?: Schema;
  /** 501/503 answers the route documents (a feature not implemented, a dependency down). */
  documented5xx: number[];
}

interface Probe {
  label: string;
  path: string;
  body?: BodyInit;
  contentType?: string;
  /** Header overrides; null removes the route's default header. */
  headers?: Record<string, string | null>;
  method?: string;
}

/** Family envelope checks, by path prefix (independent of the app's own routing table). */
const families: { prefixes: string[]; name: string; check(status: number, b: Schema): void }[] = [
  {
    name: "blockchain",
    prefixes: ["/v2/", "/service/v1/", "/core/v1/"],
    check(status, b) {
      assert.equal(typeof b?.code, "number");
      assert.equal(typeof b.message, "string");
      if (status >= 400) assert.notEqual(b.code, 0);
    },
  },
  {
    name: "chat",
    prefixes: ["/chat/"],
    check(_s, b) {
      assert.equal(typeof b?.result?.result_code, "string");
      assert.equal(typeof b.result.result_msg, "string");
      // These answer HTTP 200 even for a system error; 506 is the hidden 500.
      assert.notEqual(b.result.result_code, "506", "system error");
    },
  },
  {
    name: "tads",
    prefixes: ["/cads2/"],
    check(_s, b) {
      assert.equal(typeof b?.result?.result_code, "string");
      assert.equal(typeof b.result.result_text, "string");
      assert.ok(Array.isArray(b.result.result_array));
      assert.notEqual(b.result.result_code, "506", "system error");
    },
  },
  {
    name: "cpa",
    prefixes: ["/api/cpa"],
    check(status, b) {
      assert.equal(typeof b?.result_code, "number");
      assert.equal(typeof b.result_msg, "string");
      assert.equal(typeof b.result_message, "string");
      if (status >= 400) assert.notEqual(b.result_code, 0);
    },
  },
  {
    name: "items",
    prefixes: ["/items/"],
    check(status, b) {
      assert.equal(typeof b?.code, "number");
      assert.equal(typeof b.message, "string");
      if (status >= 400) assert.notEqual(b.code, 0);
    },
  },
  {
    name: "push",
    prefixes: ["/push/"],
    check(status, b) {
      if (status >= 400) assert.equal(typeof b?.error?.reason, "string");
    },
  },
  {
    name: "otp",
    prefixes: ["/otp/"],
    check(status, b) {
      if (status >= 400) {
        assert.equal(typeof b?.error?.code, "string");
        assert.equal(typeof b.error.reason, "string");
      }
    },
  },
  {
    name: "admin",
    prefixes: [""],
    check(status, b) {
      if (status >= 400) {
        assert.equal(typeof b?.error?.code, "string");
        assert.equal(typeof b.error.message, "string");
      }
    },
  },
];

function familyFor(path: string) {
  return families.find((f) => f.prefixes.some((p) => path.startsWith(p)))!;
}

/** Blockchain codes the catalog documents as 501 (an operation a network does not offer). */
const notOffered = new Set(
  Object.values(blockchainCatalog).filter((e) => e.status === 501).map((e) => e.code),
);

/** Paths whose handler needs a chain node; without POLYGON_RPC_URL they may answer 503. */
function mayBeUnavailable(path: string): boolean {
  return /^\/(service|core)\/v1\/|^\/admin\/v1\/contracts\/deploy|^\/readyz/.test(path);
}

const doc = (await callJson("GET", "/openapi.json")).body;
const routes: RouteCase[] = [];
for (const [path, ops] of Object.entries(doc.paths as Record<string, Record<string, Schema>>)) {
  for (const [method, op] of Object.entries(ops)) {
    routes.push({
      method: method.toUpperCase(),
      path,
      params: op.parameters ?? [],
      schema: op.requestBody?.content?.["application/json"]?.schema,
      documented5xx: Object.keys(op.responses ?? {}).map(Number).filter((s) =>
        s === 501 || s === 503
      ),
    });
  }
}
// Routes outside the document.
routes.push(
  { method: "GET", path: "/docs", params: [], documented5xx: [] },
  { method: "GET", path: "/openapi.json", params: [], documented5xx: [] },
);
assert.ok(routes.some((r) => r.path === "/api/cpa"), "the OpenAPI document lists /api/cpa");
assert.ok(routes.length > 40, `only ${routes.length} routes in the document`);

// One tenant with every credential the routes need.
const tenant = await seedTenant("robustness");
const key = await tenant.apiKey(["push", "otp", "items", "cpa"]);
const spareKey = await tenant.apiKey(["cpa"]);
const topic = await admin("POST", `/admin/v1/games/${tenant.gameIndex}/otp-topics`, {
  topic: "login",
  serviceName: "Robust",
  mode: "provider",
});
assert.equal(topic.status, 201, JSON.stringify(topic.body));
const project = await admin("POST", "/admin/v1/tads/projects", {
  name: "robust words",
  forbiddenWords: ["fuck"],
  masking: { enabled: true },
});
assert.equal(project.status, 201, JSON.stringify(project.body));
const chatKey = await admin("POST", `/admin/v1/games/${tenant.gameIndex}/chat-keys`, {
  projectKey: project.body.projectKey,
});
assert.equal(chatKey.status, 201, JSON.stringify(chatKey.body));
const campaign = await admin("POST", `/admin/v1/games/${tenant.gameIndex}/cpa`, {
  appid: tenant.appid,
  cpaCode: "robust",
  subReason: "1",
  detail: [{ action: "add", assetCode: "gem", amount: 1 }],
});
assert.equal(campaign.status, 201, JSON.stringify(campaign.body));
const { services } = await testEnv();

// Errors the app logs while answering: an unexpected one is a 500 hidden behind an envelope.
const loggedErrors: string[] = [];
const logError = services.log.error.bind(services.log);
services.log.error = (msg, fields) => {
  const err = fields?.err as Error | undefined;
  if (msg !== "deferred work failed") {
    loggedErrors.push(`${msg}: ${err?.message?.slice(0, 200) ?? ""}`);
  }
  logError(msg, fields);
};

const secrets = [
  ADMIN_TOKEN,
  key.apiKey,
  spareKey.apiKey,
  tenant.clientSecret,
  tenant.accessToken,
  tenant.refreshToken,
  chatKey.body.secretKey as string,
  project.body.secretKey as string,
  services.config.KMS_MASTER_KEY,
].filter((s): s is string => typeof s === "string" && s.length >= 8);

function headersFor(path: string): Record<string, string> {
  if (path.startsWith("/admin/")) return { authorization: `Bearer ${ADMIN_TOKEN}` };
  if (/^\/(service|core)\/v1\//.test(path)) return tenant.chainHeaders;
  if (/^\/(push|items|otp)\/|^\/api\/cpa/.test(path)) {
    return { authorization: `Bearer ${key.apiKey}`, topic: "login" };
  }
  return {};
}

/** Contracts deployed on anvil for the last part of the run (unset before: no chain node). */
let onChain: Record<"nft" | "token" | "lock" | "pool" | "operator" | "player", string> | undefined;

/** An address for a field or path parameter: a deployed contract once a chain is up. */
function addressFor(name: string, path: string): string {
  if (!onChain) return "0x" + "1".repeat(40);
  if (name === "to") return onChain.player;
  if (/^(owner|from|address)$/.test(name)) return onChain.operator;
  if (name === "lockContract") return onChain.lock;
  if (name === "nftContract") return onChain.nft;
  if (name === "convertPool") return onChain.pool;
  if (/\/ft\//.test(path)) return onChain.token;
  if (/\/lock\/contract\//.test(path)) return onChain.lock;
  if (/\/convert\/pool\//.test(path)) return onChain.pool;
  return onChain.nft;
}

/** Values for path parameters that reach the handler (existing tenant objects where needed). */
function pathValue(name: string, path = ""): string {
  switch (name) {
    case "gameIndex":
      return String(tenant.gameIndex);
    case "keyId":
      return spareKey.keyId;
    case "projectKey":
      return project.body.projectKey;
    case "network":
      return "polygon";
    case "tokenId":
    case "targetingId":
      return "1";
    case "type":
      return "to-token";
    case "owner":
    case "from":
    case "contract":
    case "convertPool":
      return addressFor(name, path);
    default:
      return "robust-1";
  }
}

const patternExamples: Record<string, string> = {
  "^-?\\d{1,19}$": "12",
  "^0x[0-9a-fA-F]{64}$": "0x" + "ab".repeat(32),
  "^[A-Za-z0-9.:\\-\\[\\]]+$": "127.0.0.1",
  "^[A-Za-z0-9._:-]+$": "req-1",
  "^[\\x21-\\x7e]+$": "tx-1",
  "^\\+?[0-9][0-9\\s\\-().]*$": "01012345678",
  "^\\+?[1-9][0-9]{0,3}$": "82",
  "^\\d{1,18}$": "12",
  "^\\d{1,19}$": "12",
  "^\\d{1,78}$": "1",
  "^\\d{4}-\\d{2}-\\d{2}$": "2024-05-01",
};

/**
 * A plausible value for a JSON schema, constraints respected: required properties only, or
 * every property with `full` (so nested optional fields get mutated too).
 */
function example(s: Schema, name = "", full = false, path = ""): unknown {
  if (!s) return "x";
  if (name === "tokenId") return "1";
  if (name === "value" && s.anyOf) return 0;
  if (/amount$/i.test(name) && s.type === "string") return "1";
  if (s.oneOf || s.anyOf) return example((s.oneOf ?? s.anyOf)[0], name, full, path);
  if (s.enum) return s.enum.find((v: unknown) => v !== null);
  const type = Array.isArray(s.type) ? s.type.find((t: string) => t !== "null") : s.type;
  switch (type) {
    case "object": {
      const out: Record<string, unknown> = {};
      const keys = full ? Object.keys(s.properties ?? {}) : s.required ?? [];
      for (const k of keys) out[k] = example(s.properties?.[k], k, full, path);
      if (full && s.additionalProperties && typeof s.additionalProperties === "object") {
        out.en = example(s.additionalProperties, "en", full, path);
      }
      return out;
    }
    case "array":
      return Array.from(
        { length: Math.max(1, s.minItems ?? 1) },
        () => example(s.items, name, full, path),
      );
    case "integer":
    case "number":
      if (/^game_?index$/i.test(name)) return tenant.gameIndex;
      return Math.max(s.minimum ?? 1, (s.exclusiveMinimum ?? 0) + 1);
    case "boolean":
      return false;
    default:
      if (s.pattern) return patternExamples[s.pattern] ?? "x";
      if (s.format === "email") return "robust@example.com";
      if (s.format === "uri" || /url$/i.test(name)) return "http://127.0.0.1:9/cb";
      if (name === "appid") return tenant.appid;
      if (name === "company") return "com2us";
      if (name === "country") return "KR";
      if (/Date$/.test(name)) return "2030-01-01";
      if (name === "time") return "10:00";
      if (name === "txHash") return "0x" + "cd".repeat(32);
      if (/^(address|owner|from|to|\w+Contract|convertPool)$/.test(name)) {
        return addressFor(name, path);
      }
      return "x".repeat(Math.max(1, s.minLength ?? 1));
  }
}

const chatMsg = (plain: string) => encryptEcb(plain, chatKey.body.secretKey, { padding: "pkcs7" });
const textMsg = (plain: string) => encryptEcb(plain, project.body.secretKey, { padding: "pkcs7" });

const CHAT_PLAIN: Record<string, unknown> = {
  time_stamp: "2024-05-01T12:00:00.000+09:00",
  room_num: 7,
  lang_code: 1,
  chat_msg: "hi",
  chat_mode: 100,
  channel_user_id: 1001,
};
const TEXT_PLAIN: Record<string, unknown> = { user_id: "u1", lang_code: "en", text: "hi" };

/** Each field of a decrypted payload replaced by each hostile value, as JSON text. */
function mutatedPlaintexts(plain: Record<string, unknown>): string[] {
  return Object.keys(plain).flatMap((k) =>
    NESTED_VALUES.map(([, v]) => JSON.stringify({ ...plain, [k]: v }))
  );
}

/** Hand-written bodies where the schema says too little to reach the handler's own logic. */
function baseBody(r: RouteCase): Body | undefined {
  if (r.path === "/push/campaigns") return campaignBody({ tenant, headers: {} });
  if (r.path === "/api/cpa") {
    return { appid: tenant.appid, vid: "7", server_id: "1", cpa_code: "robust" };
  }
  if (r.path === "/chat/api/v1/send-chat-log") {
    return {
      game_key: chatKey.body.gameKey,
      chat_log: {
        chat_count: 1,
        msg_array: [{
          time_stamp: "2024-05-01T12:00:00+09:00",
          msg: chatMsg(JSON.stringify(CHAT_PLAIN)),
        }],
      },
    };
  }
  if (r.path === "/cads2/send-text-data") {
    return {
      project_key: project.body.projectKey,
      text_log: {
        text_count: 1,
        text_array: [{
          time_stamp: "2024-05-01T12:00:00Z",
          text_info: textMsg(JSON.stringify(TEXT_PLAIN)),
        }],
      },
    };
  }
  if (!r.schema) return undefined;
  const body = example(r.schema, "", false, r.path) as Schema;
  if (r.path.endsWith("/mint")) body.mintMsg[0].royaltyPercentage = 5;
  if (r.path.endsWith("/direct/new")) body[0].identifier = { playerId: 1 };
  if (r.path === "/otp/verify") Object.assign(body, { to: "01012345678", toCountryNo: "82" });
  return body;
}

/** Extra bodies: encrypted payloads that decrypt to hostile content. */
function extraBodies(r: RouteCase, base: Body): [string, unknown][] {
  const hostile = [
    "not json",
    "[]",
    "null",
    "42",
    JSON.stringify({ chat_msg: 5, room_num: "x", channel_user_id: {} }),
    JSON.stringify({ user_id: null, lang_code: 7, text: ["a"] }),
    JSON.stringify({ user_id: "u", lang_code: "en", text: "\u0000😀".repeat(100) }),
  ];
  const b = base as Schema;
  if (r.path === "/chat/api/v1/send-chat-log") {
    return [
      ...[...hostile, ...mutatedPlaintexts(CHAT_PLAIN)].map((h): [string, unknown] => [
        `encrypted ${h.slice(0, 20)}`,
        {
          ...b,
          chat_log: { ...b.chat_log, msg_array: [{ ...b.chat_log.msg_array[0], msg: chatMsg(h) }] },
        },
      ]),
      ["msg not base64", {
        ...b,
        chat_log: { ...b.chat_log, msg_array: [{ time_stamp: "t", msg: "%%%not base64" }] },
      }],
      ["msg wrong block size", {
        ...b,
        chat_log: { ...b.chat_log, msg_array: [{ time_stamp: "t", msg: "AAAA" }] },
      }],
    ];
  }
  if (r.path === "/cads2/send-text-data") {
    return [
      ...[...hostile, ...mutatedPlaintexts(TEXT_PLAIN)].map((h): [string, unknown] => [
        `encrypted ${h.slice(0, 20)}`,
        {
          ...b,
          text_log: {
            ...b.text_log,
            text_array: [{ ...b.text_log.text_array[0], text_info: textMsg(h) }],
          },
        },
      ]),
      ["text_info not base64", {
        ...b,
        text_log: { ...b.text_log, text_array: [{ time_stamp: "t", text_info: "%%%" }] },
      }],
    ];
  }
  return [];
}

function fillPath(template: string, override: Record<string, string> = {}): string {
  return template.replace(
    /\{(\w+)\}/g,
    (_, n) => override[n] ?? encodeURIComponent(pathValue(n, template)),
  );
}

const HUGE = "h".repeat(100 * 1024);
const b64url = (v: unknown) =>
  btoa(JSON.stringify(v)).replaceAll("+", "-").replaceAll("/", "_").replaceAll("=", "");
/** Token-shaped garbage: parsers of JWTs and API keys must refuse these, not throw. */
const TOKENS: [string, string][] = [
  ["alg none JWT", `${b64url({ alg: "none" })}.${b64url({ sub: "x" })}.`],
  ["array payload JWT", `${b64url({ alg: "ES256", kid: "x" })}.${b64url([1])}.c2ln`],
  ["odd kid JWT", `${b64url({ alg: "ES256", kid: { a: 1 } })}.${b64url({ exp: "x" })}.c2ln`],
  ["HS256 JWT", `${b64url({ alg: "HS256", typ: "JWT" })}.${b64url({ gid: -1 })}.c2ln`],
  ["not base64 JWT", "%%%.%%%.%%%"],
];
const ODD_STRINGS: [string, string][] = [
  ...TOKENS,
  ["huge string", HUGE],
  ["emoji/NUL", "😀\u0000\u202e한글\uffff"],
  ["lone surrogate", "\ud800x"],
  ["int8 overflow digits", "9999999999999999999"],
  ["uint256 overflow digits", "9".repeat(78)],
  ["empty string", ""],
];

const NESTED_VALUES: [string, unknown][] = [
  ["null", null],
  ["number", 12345],
  ["string", "abc"],
  ["object", { a: 1 }],
  ["empty array", []],
  ["negative", -1],
  ["fraction", 1.5],
  ["int4 overflow", 2 ** 31],
  ["emoji/NUL", "😀\u0000"],
  ["lone surrogate", "\udc00x"],
  ["int8 overflow digits", "9999999999999999999"],
  ["uint256 overflow digits", "9".repeat(78)],
  ["huge string", HUGE],
];

/** Paths (below the top level) of every value inside a body, e.g. ["mintMsg", 0, "metadata"]. */
function nestedPaths(value: unknown, at: (string | number)[] = []): (string | number)[][] {
  if (!value || typeof value !== "object") return [];
  const out: (string | number)[][] = [];
  for (const [k, v] of Object.entries(value)) {
    const key = Array.isArray(value) ? Number(k) : k;
    const here = [...at, key];
    if (at.length > 0 || Array.isArray(value)) out.push(here);
    out.push(...nestedPaths(v, here));
  }
  return out;
}

/** A deep copy of the body with the value at a path replaced. */
function replaceAt(body: unknown, at: (string | number)[], value: unknown): unknown {
  const copy = structuredClone(body) as Record<string | number, unknown>;
  let node = copy;
  for (const k of at.slice(0, -1)) node = node[k] as Record<string | number, unknown>;
  node[at[at.length - 1]] = value;
  return copy;
}

/** Every probe for one route. */
function probes(r: RouteCase): Probe[] {
  const path = fillPath(r.path);
  const out: Probe[] = [];
  const json = (label: string, value: unknown, p = path): Probe => ({
    label,
    path: p,
    body: JSON.stringify(value),
    contentType: "application/json",
  });
  const hasBody = r.method !== "GET" && r.method !== "DELETE";
  const base = baseBody(r);
  if (hasBody) {
    out.push(
      { label: "malformed JSON", path, body: '{"a":', contentType: "application/json" },
      { label: "empty body", path, body: "", contentType: "application/json" },
      { label: "no body", path },
      json("JSON array", [1, 2]),
      json("JSON number", 42),
      json("JSON string", "x"),
      json("JSON null", null),
      json("JSON true", true),
      { label: "text/plain", path, body: JSON.stringify(base ?? {}), contentType: "text/plain" },
      {
        label: "form",
        path,
        body: "a=1&b=2",
        contentType: "application/x-www-form-urlencoded",
      },
      {
        label: "over 1 MiB",
        path,
        body: JSON.stringify({ pad: "p".repeat(1_100_000) }),
        contentType: "application/json",
      },
      { label: "BOM + JSON", path, body: "\ufeff{}", contentType: "application/json" },
      json("deeply nested", JSON.parse("[".repeat(2000) + "]".repeat(2000))),
      json("__proto__ key", JSON.parse('{"__proto__":{"polluted":1},"constructor":1}')),
      {
        label: "invalid UTF-8 bytes",
        path,
        body: new Uint8Array([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]),
        contentType: "application/json",
      },
      { label: "duplicate keys", path, body: '{"a":1,"a":2}', contentType: "application/json" },
    );
    for (
      const type of [
        "application/json; charset=latin1",
        "APPLICATION/JSON",
        "application/json-patch+json",
        "application/jsonx",
        "multipart/form-data; boundary=x",
      ]
    ) {
      out.push({
        label: `content type ${type}`,
        path,
        body: JSON.stringify(base ?? {}),
        contentType: type,
      });
    }
    if (base !== undefined) {
      out.push(json("valid-ish", base));
      const target = Array.isArray(base) ? base[0] as Record<string, unknown> : base;
      const schema = Array.isArray(base) ? r.schema?.items : r.schema;
      const wrap = (o: Record<string, unknown>) => Array.isArray(base) ? [o] : o;
      const fields = new Set([
        ...Object.keys(target ?? {}),
        ...Object.keys(schema?.properties ?? {}),
      ]);
      for (const f of fields) {
        const mutate = (label: string, value: unknown) =>
          out.push(json(`${f}=${label}`, wrap({ ...target, [f]: value })));
        mutate("null", null);
        mutate("number", 12345);
        mutate("string", "abc");
        mutate("object", { a: 1 });
        mutate("array", [1, "x", null]);
        mutate("bool", true);
        mutate("negative", -1);
        mutate("fraction", 1.5);
        mutate("huge number", 1e308);
        mutate("unsafe integer", 2 ** 64);
        mutate("int4 overflow", 2 ** 31);
        mutate("max safe integer", Number.MAX_SAFE_INTEGER);
        mutate("long array", Array(20_000).fill(1));
        for (const [label, s] of ODD_STRINGS) mutate(label, s);
        if (Array.isArray(target[f])) mutate("array of nulls", [null, null]);
      }
      const fullBody = r.schema ? example(r.schema, "", true, r.path) : base;
      out.push(json("valid-ish with optional fields", fullBody));
      const paths = new Map(
        [...nestedPaths(base), ...nestedPaths(fullBody)].map((at) => [at.join("."), at]),
      );
      for (const at of paths.values()) {
        const from = nestedPaths(base).some((p) => p.join(".") === at.join(".")) ? base : fullBody;
        for (const [label, value] of NESTED_VALUES) {
          out.push(json(`${at.join(".")}=${label}`, replaceAt(from, at, value)));
        }
      }
      for (const [label, value] of extraBodies(r, base)) out.push(json(label, value));
    }
  }
  for (const p of r.params.filter((p) => p.in === "path")) {
    for (
      const [label, v] of [
        ["long", "a".repeat(5000)],
        ["%00", "%00"],
        ["..", "%2e%2e"],
        ["../..", "..%2f..%2fadmin"],
        ["bad percent", "%ZZ"],
        ["emoji", "%F0%9F%98%80"],
        ["invalid UTF-8", "%C3%28"],
        ["encoded surrogate", "%ED%A0%80"],
        ["non-numeric", "abc"],
        ["negative", "-1"],
        ["fraction", "1.5"],
        ["huge number", "9".repeat(40)],
        ["int4 overflow", "2147483648"],
        ["int8 overflow", "9999999999999999999"],
        ["uint256 overflow", "9".repeat(78)],
        ["max safe integer", "9007199254740991"],
        ["exponent", "1e3"],
        ["zero", "0"],
        ["space", "%20"],
      ]
    ) {
      const p2 = fillPath(r.path, { [p.name]: v });
      out.push(
        hasBody && base !== undefined ? json(`path ${p.name} ${label}`, base, p2) : {
          label: `path ${p.name} ${label}`,
          path: p2,
        },
      );
    }
  }
  const authed = base !== undefined && hasBody ? json : (label: string) => ({ label, path });
  const withHeaders = (label: string, headers: Record<string, string | null>): Probe => ({
    ...authed(label, base),
    headers,
  });
  out.push(
    withHeaders("no authorization", { authorization: null }),
    withHeaders("huge bearer", { authorization: "Bearer " + "t".repeat(8000) }),
    withHeaders("three-part garbage bearer", { authorization: "Bearer a.b.c" }),
    withHeaders("alg none JWT", {
      authorization: "Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.",
    }),
    withHeaders("basic scheme", { authorization: "Basic dXNlcjpwYXNz" }),
    ...TOKENS.map(([label, token]) =>
      withHeaders(`bearer ${label}`, { authorization: `Bearer ${token}` })
    ),
    withHeaders("bearer without token", { authorization: "Bearer" }),
    withHeaders("two tokens", { authorization: "Bearer a b" }),
    withHeaders("odd x-network", { "x-network": "ethereum" }),
    withHeaders("empty x-network", { "x-network": "" }),
    withHeaders("x-network xpla", { "x-network": "xpla" }),
    withHeaders("odd x-appid", { "x-appid": "x".repeat(3000) }),
    withHeaders("odd topic", { topic: "\u00e9".repeat(300) }),
    withHeaders("unknown topic", { topic: "nope" }),
    withHeaders("odd request id", { "x-request-id": "r".repeat(1000) }),
    { label: "wrong method", path, method: r.method === "PUT" ? "PATCH" : "PUT" },
    { label: "OPTIONS", path, method: "OPTIONS" },
    { ...authed("extra segment", base), path: `${path}/extra` },
    { ...authed("trailing slash", base), path: `${path}/` },
    { ...authed("double slash", base), path: path.replace("/", "//") },
  );
  const queryNames = r.params.filter((p) => p.in === "query").map((p) => p.name);
  if (queryNames.length === 0) queryNames.push("unexpected");
  for (const q of queryNames) {
    for (
      const [label, v] of [
        ["empty", ""],
        ["negative", "-1"],
        ["fraction", "1.5"],
        ["non-numeric", "abc"],
        ["huge", "9".repeat(400)],
        ["int4 overflow", "2147483648"],
        ["int8 overflow", "9999999999999999999"],
        ["uint256 overflow", "9".repeat(78)],
        ["max safe integer", "9007199254740991"],
        ["exponent", "1e3"],
        ["%00", "%00"],
        ["bad percent", "%ZZ"],
        ["emoji", "%F0%9F%98%80"],
        ["invalid UTF-8", "%C3%28"],
        ["encoded surrogate", "%ED%A0%80"],
        ["long", "q".repeat(5000)],
      ]
    ) {
      const p2 = `${path}?${q}=${v}`;
      out.push(
        hasBody && base !== undefined ? json(`query ${q} ${label}`, base, p2) : {
          label: `query ${q} ${label}`,
          path: p2,
        },
      );
    }
    out.push({ label: `query ${q} repeated`, path: `${path}?${q}=1&${q}=2` });
  }
  return out;
}

/** Sends one probe and returns what is wrong with the answer, if anything. */
async function check(r: RouteCase, probe: Probe): Promise<string | undefined> {
  const headers: Record<string, string> = { ...headersFor(r.path) };
  if (probe.contentType) headers["content-type"] = probe.contentType;
  for (const [k, v] of Object.entries(probe.headers ?? {})) {
    if (v === null) delete headers[k];
    else headers[k] = v;
  }
  const method = probe.method ?? r.method;
  const res = await call(method, probe.path, { body: probe.body, headers });
  const text = await res.text();
  const where = `${method} ${probe.path.slice(0, 80)} [${probe.label}] -> ${res.status}`;
  try {
    assert.ok(res.headers.get("x-request-id"), "X-Request-Id missing");
    assert.ok(
      res.status < 500 || (res.status === 503 && !onChain && mayBeUnavailable(r.path)) ||
        r.documented5xx.includes(res.status) ||
        (res.status === 501 && notOffered.has(JSON.parse(text)?.code)),
      "server error",
    );
    assert.doesNotMatch(text, /at file:\/\/|\bError:|\n\s+at /, "stack trace in body");
    for (const s of secrets) assert.ok(!text.includes(s), "secret in body");
    if (r.path === "/docs" && res.status === 200) return;
    if (r.path === "/openapi.json" && res.status === 200) return void JSON.parse(text);
    const family = familyFor(new URL(probe.path, "http://x").pathname);
    // Push and admin successes follow the spec per resource; some have no body (200/204).
    const bodyless = res.status < 300 && text === "" && /^(push|admin)$/.test(family.name);
    if (bodyless) return;
    assert.match(res.headers.get("content-type") ?? "", /application\/json/, "not JSON");
    const body = JSON.parse(text);
    family.check(res.status, body);
    if (family.name === "push") assert.ok(res.headers.get("uuid"), "UUID header missing");
  } catch (err) {
    return `${where}: ${(err as Error).message.split("\n")[0]} ${text.slice(0, 200)}`;
  }
}

/** Sends every probe of a route and fails with the list of bad answers. */
async function probeRoute(r: RouteCase) {
  const failures: string[] = [];
  const all = probes(r);
  // A few in flight at once keeps the run short without reordering a route's own state much.
  for (let i = 0; i < all.length; i += 4) {
    const results = await Promise.all(all.slice(i, i + 4).map((p) => check(r, p)));
    failures.push(...results.filter((f): f is string => f !== undefined));
  }
  await services.idle();
  failures.push(...loggedErrors.splice(0).map((e) => `logged error: ${e}`));
  assert.deepEqual(failures, [], `${failures.length} of ${all.length} probes failed`);
}

for (const r of routes) {
  Deno.test(`robustness: ${r.method} ${r.path}`, () => probeRoute(r));
}

/** Starts both chains and deploys the contracts the chain routes act on, so validation reaches the chain code. */
async function setUpChain() {
  await chainEnv();
  await xplaEnv();
  const operator = await fundedWallet(tenant.gameIndex, { kms: true });
  const player = await fundedWallet(tenant.gameIndex, { kms: false });
  const from = operator.address;
  const g = tenant.gameIndex;
  const nft = await deploy({ gameIndex: g, type: "nft", from, name: "N" });
  const lock = await deploy({ gameIndex: g, type: "lock", from, name: "L" });
  const token = await deploy({
    gameIndex: g,
    type: "token",
    from,
    name: "Gold",
    symbol: "GLD",
    initialSupply: "1000000000000000000000",
  });
  const pool = await deploy({ gameIndex: g, type: "convert-pool", from, name: "P", token });
  onChain = { nft, lock, token, pool, operator: from, player: player.address };
}

// Last, with a chain node up: chain routes past "node not configured" into the chain code.
const chainRoutes = routes.filter((r) =>
  /^\/(service|core)\/v1\/|^\/admin\/v1\/(contracts|wallets)|^\/metadata\//.test(r.path)
);
for (const [i, r] of chainRoutes.entries()) {
  Deno.test({
    ...chainTestOptions,
    name: `robustness with a chain node: ${r.method} ${r.path}`,
    async fn() {
      if (i === 0) await setUpChain();
      await probeRoute(r);
    },
  });
}
