/**
 * Completes the generated OpenAPI document in one place, so route files declare only what is
 * particular to them: every operation gets an operationId, its security scheme, the headers its
 * family requires (x-network, x-appid, Topic), a response for every error status its family
 * renders (in the family's envelope, with an example from the family's code table), Retry-After
 * on 429 and 503, and examples derived from the schemas where a route gives none.
 */
import { blockchainCatalog } from "./blockchain/codes.ts";
import { itemErrorCodes } from "./items/envelope.ts";
import { otpErrors } from "./otp/envelope.ts";
import { cpaCodes } from "./promotion/envelope.ts";

// deno-lint-ignore no-explicit-any
type Json = any;

const errorObject = (props: Record<string, Json>, required: string[]) => ({
  type: "object",
  properties: props,
  required,
});

/** Security schemes every operation refers to. */
export const securitySchemes = {
  accessToken: {
    type: "http",
    scheme: "bearer",
    bearerFormat: "JWT",
    description: "Access token from POST /v2/auth-token (blockchain API).",
  },
  apiKey: {
    type: "http",
    scheme: "bearer",
    bearerFormat: "API key",
    description:
      "API key from POST /admin/v1/games/{gameIndex}/api-keys with the scope of the family (items, otp, push).",
  },
  adminToken: {
    type: "http",
    scheme: "bearer",
    description: "The deployment's ADMIN_TOKEN.",
  },
  metricsToken: {
    type: "http",
    scheme: "bearer",
    description: "METRICS_TOKEN, a scrape-only token (GET /metrics).",
  },
};

interface FamilyDoc {
  prefixes: string[];
  security: Record<string, string[]>[];
  /** Error component name, its schema and an example body per status. */
  error?: { name: string; schema: Json; examples: Record<number, Json> };
  headers?: { name: string; schema: Json; description: string; required: boolean }[];
  responseHeaders?: Record<string, Json>;
}

const blockchainExamples: Record<number, Json> = {};
for (const e of Object.values(blockchainCatalog)) {
  blockchainExamples[e.status] ??= { code: e.code, message: e.meaning };
}

function byStatus(codes: Record<string, number>, body: (code: string) => Json) {
  const out: Record<number, Json> = {};
  for (const [code, status] of Object.entries(codes)) out[status] ??= body(code);
  return out;
}

const network = {
  name: "x-network",
  required: true,
  description: "Blockchain network: polygon or xpla (ploygon is read as polygon).",
  schema: { type: "string", enum: ["polygon", "xpla", "ploygon"] },
};

const families: FamilyDoc[] = [
  {
    prefixes: ["/v2/"],
    security: [],
    error: {
      name: "BlockchainError",
      schema: errorObject({
        code: { type: "integer", description: "non-zero code from the error catalog" },
        message: { type: "string" },
      }, ["code", "message"]),
      examples: pick(blockchainExamples, [400, 401, 413, 500, 503]),
    },
  },
  {
    prefixes: ["/service/v1/"],
    security: [{ accessToken: [] }],
    headers: [network, {
      name: "x-appid",
      required: true,
      description: "The app the access token was issued to.",
      schema: { type: "string" },
    }],
  },
  { prefixes: ["/core/v1/"], security: [{ accessToken: [] }], headers: [network] },
  {
    prefixes: ["/items/"],
    security: [{ apiKey: [] }],
    error: {
      name: "ItemsError",
      schema: errorObject({ code: { type: "integer" }, message: { type: "string" } }, [
        "code",
        "message",
      ]),
      examples: {
        400: { code: itemErrorCodes.invalid, message: "detail[0].amount is required" },
        401: { code: itemErrorCodes.unauthorized, message: "Authorization header missing" },
        403: { code: itemErrorCodes.forbidden, message: "API key lacks scope items" },
        404: { code: itemErrorCodes.not_found, message: "item request not found" },
        409: { code: itemErrorCodes.conflict, message: "transactionId reused with another body" },
        413: { code: itemErrorCodes.invalid, message: "request body too large" },
        500: { code: itemErrorCodes.internal, message: "internal error" },
        503: { code: itemErrorCodes.unavailable, message: "database unavailable" },
      },
    },
  },
  {
    prefixes: ["/otp/"],
    security: [{ apiKey: [] }],
    headers: [{
      name: "Topic",
      required: true,
      description: "The OTP topic (sending information) registered for the game.",
      schema: { type: "string" },
    }],
    error: {
      name: "OtpError",
      schema: errorObject({
        error: errorObject({
          code: { type: "string", enum: Object.keys(otpErrors) },
          reason: { type: "string" },
        }, ["code", "reason"]),
      }, ["error"]),
      examples: byStatus(
        otpErrors,
        (code) => ({ error: { code, reason: `${code.toLowerCase().replaceAll("_", " ")}` } }),
      ),
    },
  },
  {
    prefixes: ["/push/"],
    security: [{ apiKey: [] }],
    responseHeaders: {
      UUID: { description: "A fresh id of this response", schema: { type: "string" } },
    },
    error: {
      name: "PushError",
      schema: errorObject({ error: errorObject({ reason: { type: "string" } }, ["reason"]) }, [
        "error",
      ]),
      examples: Object.fromEntries(
        [400, 401, 403, 404, 413, 500, 503].map((s) => [s, { error: { reason: reasonOf(s) } }]),
      ),
    },
  },
  {
    prefixes: ["/api/cpa"],
    security: [],
    error: {
      name: "CpaResult",
      schema: errorObject({
        result_code: { type: "integer" },
        result_msg: { type: "string" },
        result_message: { type: "string" },
      }, ["result_code", "result_msg", "result_message"]),
      examples: {
        400: cpa(cpaCodes.VALIDATION_FAILED, "appid is required"),
        401: cpa(cpaCodes.INVALID_API_KEY, "API key invalid"),
        500: cpa(cpaCodes.INTERNAL, "system error"),
        503: cpa(cpaCodes.DATABASE_UNAVAILABLE, "database unavailable"),
      },
    },
  },
  // Chat and text detection answer HTTP 200 with the result code in the body.
  { prefixes: ["/chat/", "/cads2/"], security: [] },
  {
    prefixes: ["/admin/"],
    security: [{ adminToken: [] }],
    error: {
      name: "AdminError",
      schema: errorObject({
        error: errorObject({ code: { type: "string" }, message: { type: "string" } }, [
          "code",
          "message",
        ]),
      }, ["error"]),
      examples: Object.fromEntries(
        [400, 401, 404, 409, 413, 500, 503].map((s) => [
          s,
          { error: { code: adminCodeOf(s), message: reasonOf(s) } },
        ]),
      ),
    },
  },
];

function pick(all: Record<number, Json>, statuses: number[]) {
  return Object.fromEntries(statuses.filter((s) => all[s]).map((s) => [s, all[s]]));
}

function cpa(code: number | undefined, message: string) {
  return { result_code: code ?? 1, result_msg: message, result_message: message };
}

function reasonOf(status: number): string {
  return ({
    400: "body.field is required",
    401: "API key missing or invalid",
    403: "authorization scheme must be Bearer",
    404: "not found",
    409: "conflict with the current state",
    413: "request body too large",
    500: "internal error",
    503: "database unavailable",
  } as Record<number, string>)[status] ?? "error";
}

/** An example error body of a status the family's table has no example for. */
function errorExample(family: string, status: string): Json {
  const reason = reasonOf(Number(status));
  if (family === "PushError") return { error: { reason } };
  if (family === "AdminError") {
    return { error: { code: adminCodeOf(Number(status)), message: reason } };
  }
  return null;
}

function adminCodeOf(status: number): string {
  return ({
    400: "VALIDATION_FAILED",
    401: "UNAUTHORIZED",
    404: "NOT_FOUND",
    409: "CONFLICT",
    413: "BODY_TOO_LARGE",
    500: "INTERNAL",
    503: "DATABASE_UNAVAILABLE",
  } as Record<number, string>)[status] ?? "ERROR";
}

// The blockchain envelope covers /v2, /service/v1 and /core/v1; admin covers /metrics.
function errorFamily(path: string): FamilyDoc | undefined {
  if (/^\/(v2|service\/v1|core\/v1)\//.test(path)) return families[0];
  if (path === "/metrics") return families.find((f) => f.prefixes[0] === "/admin/");
  return families.find((f) => f.error && f.prefixes.some((p) => path.startsWith(p)));
}

function familyOf(path: string): FamilyDoc | undefined {
  return families.find((f) => f.prefixes.some((p) => path.startsWith(p)));
}

/** A camelCase id from method and path: POST /push/campaigns/{id} -> postPushCampaignsById. */
export function operationIdOf(method: string, path: string): string {
  const words = path.split("/").filter(Boolean).flatMap((seg) => {
    const param = /^\{(.+)\}$/.exec(seg);
    return (param ? `by-${param[1]}` : seg).split(/[^A-Za-z0-9]+/).filter(Boolean);
  });
  return method.toLowerCase() +
    words.map((w) => w[0].toUpperCase() + w.slice(1)).join("");
}

function resolve(schema: Json, doc: Json): Json {
  let s = schema;
  for (let i = 0; s?.$ref && i < 10; i++) {
    s = doc.components?.schemas?.[String(s.$ref).split("/").pop()!];
  }
  return s;
}

/** An example value that satisfies the simple constraints of a JSON schema. */
export function exampleOf(schema: Json, doc: Json, depth = 0): Json {
  const s = resolve(schema, doc);
  if (!s || depth > 8) return null;
  if (s.example !== undefined) return s.example;
  if (Array.isArray(s.examples) && s.examples.length) return s.examples[0];
  if (s.const !== undefined) return s.const;
  if (s.default !== undefined) return s.default;
  if (Array.isArray(s.enum)) return s.enum[0];
  for (const key of ["anyOf", "oneOf"]) {
    if (Array.isArray(s[key])) {
      const first = s[key].find((x: Json) => resolve(x, doc)?.type !== "null") ?? s[key][0];
      return exampleOf(first, doc, depth + 1);
    }
  }
  if (Array.isArray(s.allOf)) {
    return Object.assign({}, ...s.allOf.map((x: Json) => exampleOf(x, doc, depth + 1)));
  }
  const type = Array.isArray(s.type) ? s.type.find((t: string) => t !== "null") : s.type;
  switch (type) {
    case "object": {
      const out: Record<string, Json> = {};
      for (const [k, v] of Object.entries(s.properties ?? {})) {
        out[k] = exampleOf(v, doc, depth + 1);
      }
      return out;
    }
    case "array": {
      const n = Math.max(1, s.minItems ?? 1);
      return Array.from({ length: n }, () => exampleOf(s.items ?? {}, doc, depth + 1));
    }
    case "integer":
    case "number": {
      const min = s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + 1 : 1);
      return s.maximum !== undefined && min > s.maximum ? s.maximum : min;
    }
    case "boolean":
      return true;
    case "string":
      return stringExample(s);
    default:
      return null;
  }
}

const patternCandidates = [
  "0x" + "5a".repeat(20),
  "0x" + "5a".repeat(32),
  "1",
  "42",
  "1001",
  "01012345678",
  "82",
  "player-1",
  "tx-20260501-0001",
  "kr-1",
  "abc",
  "en",
  "2026-05-01T12:00:00+09:00",
  "2026-05-01",
  "10:00",
  "123456",
  "true",
];

function stringExample(s: Json): string | null {
  const byFormat: Record<string, string> = {
    "date-time": "2026-05-01T12:00:00.000Z",
    date: "2026-05-01",
    email: "player@example.com",
    uri: "https://example.com/callback",
    url: "https://example.com/callback",
    uuid: "2f1c6b1e-8f4a-4c57-9a0e-2b6e1d0f3c11",
  };
  if (s.format && byFormat[s.format]) return byFormat[s.format];
  if (s.pattern) {
    // The first common shape the pattern accepts; none when no candidate fits.
    let re: RegExp;
    try {
      re = new RegExp(s.pattern, "u");
    } catch {
      return null;
    }
    return patternCandidates.find((c) =>
      re.test(c) && c.length >= (s.minLength ?? 0) && c.length <= (s.maxLength ?? Infinity)
    ) ?? null;
  }
  const base = "string";
  const min = s.minLength ?? 0;
  const text = base.length >= min ? base : base.padEnd(min, "x");
  return s.maxLength !== undefined ? text.slice(0, s.maxLength) : text;
}

function addExample(media: Json, doc: Json) {
  if (!media?.schema || media.example !== undefined || media.examples !== undefined) return;
  const example = exampleOf(media.schema, doc);
  if (example !== null && !containsNull(example)) media.example = example;
}

function containsNull(v: Json): boolean {
  if (v === null) return true;
  if (Array.isArray(v)) return v.some(containsNull);
  if (typeof v === "object") return Object.values(v).some(containsNull);
  return false;
}

const statusText: Record<number, string> = {
  400: "The request is invalid; the message names the field",
  401: "Credentials missing or invalid",
  403: "Not allowed with these credentials",
  404: "Not found",
  409: "Conflicts with the current state",
  413: "Request body too large",
  422: "Validation failed",
  429: "Too many requests; Retry-After says when to try again",
  500: "Internal error (logged with its cause)",
  501: "Not available on this network",
  502: "An upstream service refused or failed",
  503: "A dependency is unavailable; Retry-After says when to try again",
};

const retryAfter = {
  description: "Seconds to wait before retrying",
  schema: { type: "integer", minimum: 1 },
};

/** Completes a generated document (mutates and returns it). */
export function completeDocument(doc: Json): Json {
  doc.servers ??= [{ url: "http://localhost:8787", description: "local (deno task dev)" }];
  doc.components ??= {};
  doc.components.securitySchemes = { ...securitySchemes, ...doc.components.securitySchemes };
  doc.components.schemas ??= {};
  for (const f of families) if (f.error) doc.components.schemas[f.error.name] = f.error.schema;
  const seen = new Set<string>();
  for (const [path, item] of Object.entries<Json>(doc.paths ?? {})) {
    const family = familyOf(path);
    const errors = errorFamily(path)?.error;
    for (const [method, op] of Object.entries<Json>(item)) {
      if (!["get", "post", "put", "patch", "delete"].includes(method)) continue;
      let id = op.operationId ?? operationIdOf(method, path);
      while (seen.has(id)) id += "Alt";
      seen.add(id);
      op.operationId = id;
      // A route naming a scheme that does not exist gets its family's scheme.
      const known = (op.security ?? []).every((req: Json) =>
        Object.keys(req).every((k) => k in doc.components.securitySchemes)
      );
      if (!op.security || !known) op.security = family?.security ?? [];
      op.parameters ??= [];
      for (const h of family?.headers ?? []) {
        const has = op.parameters.some((p: Json) =>
          p.in === "header" && String(p.name).toLowerCase() === h.name.toLowerCase()
        );
        if (!has) op.parameters.push({ in: "header", ...h });
      }
      if (op.parameters.length === 0) delete op.parameters;
      op.responses ??= {};
      if (errors) {
        for (const [status, example] of Object.entries(errors.examples)) {
          op.responses[status] ??= {
            description: statusText[Number(status)] ?? "Error",
            content: {
              "application/json": {
                schema: { $ref: `#/components/schemas/${errors.name}` },
                example,
              },
            },
          };
        }
      }
      for (const [status, res] of Object.entries<Json>(op.responses)) {
        // An error status a route declares with a description only gets the family's body too.
        if (errors && Number(status) >= 400 && !res.content) {
          res.content = {
            "application/json": {
              schema: { $ref: `#/components/schemas/${errors.name}` },
              example: errors.examples[Number(status)] ?? errorExample(errors.name, status),
            },
          };
        }
        if (status === "429" || status === "503") {
          res.headers = { "Retry-After": retryAfter, ...res.headers };
        }
        if (family?.responseHeaders) res.headers = { ...family.responseHeaders, ...res.headers };
        for (const media of Object.values<Json>(res.content ?? {})) addExample(media, doc);
      }
      for (const media of Object.values<Json>(op.requestBody?.content ?? {})) {
        addExample(media, doc);
      }
    }
  }
  return doc;
}
