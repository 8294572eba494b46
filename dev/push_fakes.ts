/**
 * Local stand-ins for the push providers, checking the documented request formats:
 *
 * - Google's OAuth token endpoint (`POST /token`): verifies the JWT bearer assertion (RS256
 *   signature against the service account's public key, iss, aud = token_uri, scope, iat/exp).
 * - FCM HTTP v1 (`POST /v1/projects/{project}/messages:send`): checks the bearer token and the
 *   message against the v1 reference (exactly one target, field names and types, data values
 *   strings, sizes) and answers FCM's error bodies.
 * - APNs (`POST /3/device/{token}`) over TLS + HTTP/2 only: verifies the ES256 provider token,
 *   the apns-* headers, the payload size, and answers Apple's reasons.
 *
 * Control API (plain HTTP, same port as OAuth and FCM), used by tests and benchmarks:
 *   POST /_fake/fcm/accounts {projectId}         -> a service-account JSON (key made here)
 *   POST /_fake/apns/keys {bundleId}             -> {teamId, keyId, privateKey} (.p8 PEM)
 *   POST /_fake/script {token, answers:[{status, code?, retryAfter?}], unregistered?}
 *   POST /_fake/fcm/expire-tokens {projectId}     access tokens issued so far answer 401
 *   POST /_fake/apns/expire-tokens {keyId}        tokens with an iat up to the newest seen answer 403
 *   POST /_fake/delay {ms}                        every provider answer waits ms
 *   GET  /_fake/received?project=..|topic=..      accepted messages (FCM by project, APNs by topic)
 *   GET  /_fake/duplicates?project=..|topic=..    tokens that accepted more than one message, with
 *                                                 their collapse ids (kept with --count-only too)
 *   GET  /_fake/requests?token=..                 every provider request for a token, with times
 *   POST /_fake/fcm/revoke {projectId}            the account's key is deleted (invalid_grant)
 *   GET  /_fake/stats?project=..                  counts (projectTokens: tokens issued to it)
 *
 *   deno task push-fakes    prints the settings that point the platform at these fakes
 *   (--count-only keeps no messages, for load tests; --json prints the settings as one JSON line)
 */
import http2 from "node:http2";
import {
  decodeJwt,
  decodeProtectedHeader,
  exportPKCS8,
  importJWK,
  type JWK,
  jwtVerify,
} from "jose";

const FCM_ALLOWED = new Set([
  "name",
  "data",
  "notification",
  "android",
  "webpush",
  "apns",
  "fcm_options",
  "token",
  "topic",
  "condition",
]);
const ANDROID_ALLOWED = new Set([
  "collapse_key",
  "priority",
  "ttl",
  "restricted_package_name",
  "data",
  "notification",
  "fcm_options",
  "direct_boot_ok",
]);
const ANDROID_NOTIFICATION_STRINGS = new Set([
  "title",
  "body",
  "icon",
  "color",
  "sound",
  "tag",
  "click_action",
  "body_loc_key",
  "title_loc_key",
  "channel_id",
  "ticker",
  "event_time",
  "notification_priority",
  "visibility",
  "image",
  "proxy",
]);
const ANDROID_NOTIFICATION_OTHER = new Set([
  "body_loc_args",
  "title_loc_args",
  "sticky",
  "local_only",
  "default_sound",
  "default_vibrate_timings",
  "default_light_settings",
  "vibrate_timings",
  "light_settings",
  "notification_count",
  "bypass_proxy_notification",
]);
const RESERVED_DATA = /^(from|notification|message_type|google.*|gcm.*)$/;
const PUSH_TYPES = new Set([
  "alert",
  "background",
  "location",
  "voip",
  "complication",
  "fileprovider",
  "mdm",
  "liveactivity",
  "pushtotalk",
]);

/** A scripted answer for a token's next request. */
export interface ScriptedAnswer {
  status: number;
  /** FCM errorCode / APNs reason. */
  code?: string;
  /** Seconds for Retry-After. */
  retryAfter?: number;
}

type VerifyKey = Awaited<ReturnType<typeof importJWK>>;

interface Account {
  projectId: string;
  email: string;
  keyId: string;
  publicJwk: JWK;
  key?: VerifyKey;
}

interface ApnsKey {
  teamId: string;
  keyId: string;
  bundleId: string;
  publicJwk: JWK;
  key?: VerifyKey;
  /** Newest iat seen, and the iat up to which tokens count as expired (a simulated hour). */
  newestIat: number;
  expiredIat: number;
}

/** One request a provider fake saw. */
export interface SeenRequest {
  provider: "fcm" | "apns";
  token: string;
  status: number;
  at: number;
  httpVersion?: string;
}

/** An accepted message. */
export interface Received {
  provider: "fcm" | "apns";
  project?: string;
  topic?: string;
  token: string;
  /** apns-collapse-id (APNs, or FCM's apns headers) or android.collapse_key; null when absent. */
  collapseId: string | null;
  /** FCM: the `message`; APNs: `{headers, payload}`. */
  body: Record<string, unknown>;
  at: number;
}

/** The running fakes. */
export interface PushFakes {
  /** Base URL of OAuth, FCM and the control API (http). */
  url: string;
  /** FCM_ENDPOINT for the platform. */
  fcmEndpoint: string;
  /** APNS_ENDPOINT for the platform (https, HTTP/2 only). */
  apnsEndpoint: string;
  /** PEM of the CA that signed the APNs fake's certificate. */
  caPem: string;
  /** Path of that PEM (for DENO_CERT). */
  caFile: string;
  close(): Promise<void>;
}

function pem(label: string, der: ArrayBuffer): string {
  const b64 = btoa(String.fromCharCode(...new Uint8Array(der)));
  return `-----BEGIN ${label}-----\n${b64.match(/.{1,64}/g)!.join("\n")}\n-----END ${label}-----\n`;
}

function randomHex(bytes: number): string {
  return [...crypto.getRandomValues(new Uint8Array(bytes))]
    .map((b) => b.toString(16).padStart(2, "0")).join("");
}

function randomUpper(n: number): string {
  const abc = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  return [...crypto.getRandomValues(new Uint8Array(n))].map((b) => abc[b % abc.length]).join("");
}

/** A CA and a localhost/127.0.0.1 certificate it signed (openssl), for the APNs fake's TLS. */
async function makeCertificates(dir: string) {
  const run = async (args: string[]) => {
    const out = await new Deno.Command("openssl", { args, cwd: dir, stderr: "piped" }).output();
    if (!out.success) {
      throw new Error(`openssl ${args[0]}: ${new TextDecoder().decode(out.stderr)}`);
    }
  };
  const ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes"];
  await run([
    "req",
    "-x509",
    ...ec,
    "-keyout",
    "ca.key",
    "-out",
    "ca.pem",
    "-days",
    "2",
    "-subj",
    "/CN=push-fakes-ca",
  ]);
  await run(["req", ...ec, "-keyout", "key.pem", "-out", "leaf.csr", "-subj", "/CN=localhost"]);
  await Deno.writeTextFile(
    `${dir}/ext.cnf`,
    "subjectAltName=DNS:localhost,IP:127.0.0.1\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n",
  );
  await run([
    "x509",
    "-req",
    "-in",
    "leaf.csr",
    "-CA",
    "ca.pem",
    "-CAkey",
    "ca.key",
    "-CAcreateserial",
    "-out",
    "cert.pem",
    "-days",
    "2",
    "-extfile",
    "ext.cnf",
  ]);
  return {
    ca: await Deno.readTextFile(`${dir}/ca.pem`),
    cert: await Deno.readTextFile(`${dir}/cert.pem`),
    key: await Deno.readTextFile(`${dir}/key.pem`),
  };
}

function fcmErrorBody(
  code: number,
  status: string,
  message: string,
  errorCode?: string,
  field?: string,
) {
  const details: Record<string, unknown>[] = [];
  if (errorCode) {
    details.push({ "@type": "type.googleapis.com/google.firebase.fcm.v1.FcmError", errorCode });
  }
  if (field) {
    details.push({
      "@type": "type.googleapis.com/google.rpc.BadRequest",
      fieldViolations: [{ field, description: message }],
    });
  }
  return { error: { code, message, status, ...(details.length ? { details } : {}) } };
}

const STATUS_OF: Record<number, string> = {
  400: "INVALID_ARGUMENT",
  401: "UNAUTHENTICATED",
  403: "PERMISSION_DENIED",
  404: "NOT_FOUND",
  429: "RESOURCE_EXHAUSTED",
  500: "INTERNAL",
  503: "UNAVAILABLE",
};

/** The collapse identifier of an accepted FCM message: APNs header for iOS, collapse_key else. */
function fcmCollapseId(message: Record<string, unknown>): string | null {
  const apns = message.apns as { headers?: Record<string, string> } | undefined;
  const android = message.android as { collapse_key?: string } | undefined;
  return apns?.headers?.["apns-collapse-id"] ?? android?.collapse_key ?? null;
}

/** Checks an FCM v1 send body; returns [field, problem] of the first violation, or null. */
export function checkFcmMessage(body: unknown): [string, string] | null {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    return ["", "body must be an object"];
  }
  const b = body as Record<string, unknown>;
  for (const k of Object.keys(b)) {
    if (k !== "message" && k !== "validate_only") {
      return [k, `Unknown name "${k}": Cannot find field.`];
    }
  }
  const m = b.message as Record<string, unknown> | undefined;
  if (!m || typeof m !== "object") return ["message", "message is required"];
  for (const k of Object.keys(m)) {
    if (!FCM_ALLOWED.has(k)) {
      return [`message.${k}`, `Unknown name "${k}" at 'message': Cannot find field.`];
    }
  }
  const targets = ["token", "topic", "condition"].filter((k) => m[k] !== undefined);
  if (targets.length !== 1) {
    return ["message", "exactly one of token, topic or condition is required"];
  }
  if (m.token !== undefined && typeof m.token !== "string") {
    return ["message.token", "must be a string"];
  }
  if (m.data !== undefined) {
    if (typeof m.data !== "object" || m.data === null) return ["message.data", "must be a map"];
    for (const [k, v] of Object.entries(m.data)) {
      if (typeof v !== "string") return [`message.data[${k}]`, "data values must be strings"];
      if (RESERVED_DATA.test(k)) return [`message.data[${k}]`, `reserved key ${k}`];
    }
  }
  if (m.notification !== undefined) {
    const n = m.notification as Record<string, unknown>;
    for (const [k, v] of Object.entries(n)) {
      if (!["title", "body", "image"].includes(k)) {
        return [`message.notification.${k}`, "Cannot find field."];
      }
      if (typeof v !== "string") return [`message.notification.${k}`, "must be a string"];
    }
  }
  const size =
    new TextEncoder().encode(JSON.stringify({ data: m.data, notification: m.notification }))
      .byteLength;
  if (size > 4096) return ["message", `Message is too big: ${size} bytes (limit 4096)`];
  if (m.android !== undefined) {
    const a = m.android as Record<string, unknown>;
    for (const k of Object.keys(a)) {
      if (!ANDROID_ALLOWED.has(k)) return [`message.android.${k}`, "Cannot find field."];
    }
    if (
      a.priority !== undefined &&
      !["NORMAL", "HIGH", "normal", "high"].includes(a.priority as string)
    ) {
      return [
        "message.android.priority",
        `Invalid value at 'message.android.priority' (${a.priority})`,
      ];
    }
    if (a.ttl !== undefined && !(typeof a.ttl === "string" && /^\d+(\.\d{1,9})?s$/.test(a.ttl))) {
      return ["message.android.ttl", 'Invalid value: a duration such as "3.5s" is required'];
    }
    if (
      a.collapse_key !== undefined && (typeof a.collapse_key !== "string" || a.collapse_key === "")
    ) {
      return ["message.android.collapse_key", "must be a non-empty string"];
    }
    const n = (a.notification ?? {}) as Record<string, unknown>;
    for (const [k, v] of Object.entries(n)) {
      if (ANDROID_NOTIFICATION_STRINGS.has(k)) {
        if (typeof v !== "string") return [`message.android.notification.${k}`, "must be a string"];
      } else if (ANDROID_NOTIFICATION_OTHER.has(k)) {
        if (k === "notification_count" && !Number.isInteger(v)) {
          return [`message.android.notification.${k}`, "must be an integer"];
        }
      } else return [`message.android.notification.${k}`, "Cannot find field."];
    }
  }
  if (m.apns !== undefined) {
    const a = m.apns as Record<string, unknown>;
    for (const k of Object.keys(a)) {
      if (!["headers", "payload", "fcm_options", "live_activity_token"].includes(k)) {
        return [`message.apns.${k}`, "Cannot find field."];
      }
    }
    for (const [k, v] of Object.entries((a.headers ?? {}) as Record<string, unknown>)) {
      if (typeof v !== "string") {
        return [`message.apns.headers[${k}]`, "header values must be strings"];
      }
      // FCM hands the headers to APNs, which refuses a collapse id over 64 bytes.
      if (k.toLowerCase() === "apns-collapse-id" && new TextEncoder().encode(v).byteLength > 64) {
        return [`message.apns.headers[${k}]`, "apns-collapse-id must be at most 64 bytes"];
      }
    }
    const payload = a.payload as Record<string, unknown> | undefined;
    if (payload && (typeof payload.aps !== "object" || payload.aps === null)) {
      return ["message.apns.payload.aps", "aps must be an object"];
    }
  }
  return null;
}

/** Starts the fakes on free loopback ports. */
export async function startPushFakes(options: { keepMessages?: boolean } = {}): Promise<PushFakes> {
  const keep = options.keepMessages ?? true;
  const dir = await Deno.makeTempDir({ prefix: "push-fakes-" });
  const tls = await makeCertificates(dir);
  const accounts = new Map<string, Account>(); // by client_email
  const projects = new Map<string, Account>();
  const accessTokens = new Map<string, { projectId: string; expiresAt: number }>();
  const apnsKeys = new Map<string, ApnsKey>(); // by keyId
  const scripts = new Map<string, ScriptedAnswer[]>();
  const dead = new Set<string>();
  const received: Received[] = [];
  /**
   * Per provider scope (project or topic): each token's accepted messages and their collapse ids,
   * the messages in all, and the tokens that accepted more than one (read without a scan).
   */
  type Copies = { copies: number; collapseIds: (string | null)[] };
  const tally = new Map<
    string,
    { tokens: Map<string, Copies>; messages: number; twice: Map<string, Copies> }
  >();
  function count(scope: string, token: string, collapseId: string | null) {
    let t = tally.get(scope);
    if (!t) tally.set(scope, t = { tokens: new Map(), messages: 0, twice: new Map() });
    t.messages++;
    const seen = t.tokens.get(token);
    if (!seen) t.tokens.set(token, { copies: 1, collapseIds: [collapseId] });
    else {
      seen.copies++;
      seen.collapseIds.push(collapseId);
      t.twice.set(token, seen);
    }
  }

  const seen = new Map<string, SeenRequest[]>();
  const stats = { fcm: 0, apns: 0, tokens: 0, refused: 0 };
  const tokensByProject = new Map<string, number>();
  let delayMs = 0;

  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, handle);
  const url = `http://127.0.0.1:${server.addr.port}`;

  function note(r: SeenRequest) {
    if (!keep) return;
    const list = seen.get(r.token) ?? [];
    list.push(r);
    seen.set(r.token, list);
  }

  function scripted(token: string): ScriptedAnswer | null {
    if (dead.has(token)) return { status: 0, code: "dead" };
    const list = scripts.get(token);
    if (!list || list.length === 0) return null;
    return list.shift()!;
  }

  async function handle(req: Request): Promise<Response> {
    const path = new URL(req.url).pathname;
    if (path.startsWith("/_fake/")) return await control(req, path);
    if (delayMs) await new Promise((r) => setTimeout(r, delayMs));
    if (path === "/token" && req.method === "POST") return await oauth(req);
    const m = /^\/v1\/projects\/([^/]+)\/messages:send$/.exec(path);
    if (m && req.method === "POST") return await fcmSend(req, decodeURIComponent(m[1]));
    return Response.json(fcmErrorBody(404, "NOT_FOUND", `no route ${path}`), { status: 404 });
  }

  async function oauth(req: Request): Promise<Response> {
    const refuse = (error: string, description: string) => {
      stats.refused++;
      return Response.json({ error, error_description: description }, { status: 400 });
    };
    if (!req.headers.get("content-type")?.startsWith("application/x-www-form-urlencoded")) {
      return refuse("invalid_request", "Content-Type must be application/x-www-form-urlencoded");
    }
    const form = new URLSearchParams(await req.text());
    if (form.get("grant_type") !== "urn:ietf:params:oauth:grant-type:jwt-bearer") {
      return refuse("unsupported_grant_type", "Invalid grant_type");
    }
    const assertion = form.get("assertion") ?? "";
    let header;
    let iss;
    try {
      header = decodeProtectedHeader(assertion);
      iss = decodeJwt(assertion).iss;
    } catch {
      return refuse("invalid_grant", "Invalid JWT: malformed");
    }
    const account = accounts.get(iss ?? "");
    if (!account) return refuse("invalid_grant", "Invalid grant: account not found");
    if (header.alg !== "RS256") return refuse("invalid_grant", "Invalid JWT: alg must be RS256");
    if (header.kid !== undefined && header.kid !== account.keyId) {
      return refuse("invalid_grant", "Invalid JWT Signature.");
    }
    account.key ??= await importJWK(account.publicJwk, "RS256");
    try {
      const { payload } = await jwtVerify(assertion, account.key, {
        audience: `${url}/token`,
        issuer: account.email,
        algorithms: ["RS256"],
      });
      if (typeof payload.iat !== "number" || typeof payload.exp !== "number") {
        return refuse("invalid_grant", "Invalid JWT: iat and exp are required");
      }
      if (payload.exp - payload.iat > 3600) {
        return refuse(
          "invalid_grant",
          "Invalid JWT: Token must be a short-lived token (60 minutes)",
        );
      }
      const scopes = String(payload.scope ?? "").split(" ");
      if (!scopes.includes("https://www.googleapis.com/auth/firebase.messaging")) {
        return refuse("invalid_scope", "firebase.messaging scope is required");
      }
    } catch (err) {
      return refuse("invalid_grant", `Invalid JWT: ${(err as Error).message}`);
    }
    stats.tokens++;
    tokensByProject.set(account.projectId, (tokensByProject.get(account.projectId) ?? 0) + 1);
    const token = `ya29.fake-${randomHex(24)}`;
    accessTokens.set(token, { projectId: account.projectId, expiresAt: Date.now() + 3600_000 });
    return Response.json({ access_token: token, expires_in: 3599, token_type: "Bearer" });
  }

  async function fcmSend(req: Request, project: string): Promise<Response> {
    const fail = (
      code: number,
      message: string,
      errorCode?: string,
      field?: string,
      headers?: HeadersInit,
    ) =>
      Response.json(fcmErrorBody(code, STATUS_OF[code] ?? "UNKNOWN", message, errorCode, field), {
        status: code,
        headers,
      });
    const auth = /^Bearer (.+)$/.exec(req.headers.get("authorization") ?? "")?.[1];
    const grant = auth ? accessTokens.get(auth) : undefined;
    if (!grant || grant.expiresAt < Date.now()) {
      return fail(
        401,
        "Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.",
      );
    }
    if (!projects.has(project)) return fail(404, "Requested entity was not found.");
    if (grant.projectId !== project) {
      return fail(
        403,
        `Permission 'cloudmessaging.messages.create' denied on resource '//cloudresourcemanager.googleapis.com/projects/${project}'`,
      );
    }
    if (!req.headers.get("content-type")?.startsWith("application/json")) {
      return fail(
        400,
        "Invalid JSON payload received: Content-Type must be application/json",
        "INVALID_ARGUMENT",
      );
    }
    let body: unknown;
    try {
      body = JSON.parse(await req.text());
    } catch {
      return fail(400, "Invalid JSON payload received.", "INVALID_ARGUMENT");
    }
    const problem = checkFcmMessage(body);
    const message = (body as { message?: Record<string, unknown> }).message ?? {};
    const token = String(message.token ?? "");
    stats.fcm++;
    if (problem) {
      note({ provider: "fcm", token, status: 400, at: Date.now() });
      return fail(400, problem[1], "INVALID_ARGUMENT", problem[0]);
    }
    if (!/^[A-Za-z0-9_:\-]{16,4096}$/.test(token)) {
      note({ provider: "fcm", token, status: 400, at: Date.now() });
      return fail(
        400,
        "The registration token is not a valid FCM registration token",
        "INVALID_ARGUMENT",
        "message.token",
      );
    }
    const s = scripted(token);
    if (s) {
      const status = s.code === "dead" ? 404 : s.status;
      note({ provider: "fcm", token, status, at: Date.now() });
      if (s.code === "dead") return fail(404, "Requested entity was not found.", "UNREGISTERED");
      const headers = s.retryAfter !== undefined
        ? { "retry-after": String(s.retryAfter) }
        : undefined;
      const code = s.code ??
        (status === 429
          ? "QUOTA_EXCEEDED"
          : status >= 500
          ? (status === 503 ? "UNAVAILABLE" : "INTERNAL")
          : undefined);
      return fail(
        status,
        `scripted ${status}`,
        code,
        code === "INVALID_ARGUMENT" ? "message.token" : undefined,
        headers,
      );
    }
    note({ provider: "fcm", token, status: 200, at: Date.now() });
    const collapseId = fcmCollapseId(message);
    count(`project:${project}`, token, collapseId);
    if (keep) {
      received.push({ provider: "fcm", project, token, collapseId, body: message, at: Date.now() });
    }
    return Response.json({ name: `projects/${project}/messages/${randomHex(8)}` });
  }

  // APNs over TLS + HTTP/2 (no HTTP/1.1 fallback, as Apple's servers).
  const apns = http2.createSecureServer({ cert: tls.cert, key: tls.key, allowHTTP1: false });
  apns.on("stream", (stream, headers) => {
    const chunks: Uint8Array[] = [];
    stream.on("data", (c: Uint8Array) => chunks.push(c));
    stream.on("end", async () => {
      if (delayMs) await new Promise((r) => setTimeout(r, delayMs));
      const body = new Uint8Array(chunks.reduce((n, c) => n + c.byteLength, 0));
      let at = 0;
      for (const c of chunks) {
        body.set(c, at);
        at += c.byteLength;
      }
      const answer = await apnsAnswer(headers as Record<string, string>, body);
      if (stream.destroyed) return;
      const out: Record<string, string | number> = {
        ":status": answer.status,
        "apns-id": (headers["apns-id"] as string) ?? crypto.randomUUID(),
        ...(answer.retryAfter !== undefined ? { "retry-after": String(answer.retryAfter) } : {}),
      };
      if (answer.status === 200) {
        stream.respond(out, { endStream: true });
      } else {
        stream.respond({ ...out, "content-type": "application/json" });
        stream.end(JSON.stringify({
          reason: answer.reason,
          ...(answer.status === 410 ? { timestamp: Date.now() } : {}),
        }));
      }
    });
    stream.on("error", () => {});
  });
  await new Promise<void>((resolve) => apns.listen(0, "127.0.0.1", () => resolve()));
  const apnsPort = (apns.address() as { port: number }).port;

  async function apnsAnswer(
    h: Record<string, string>,
    body: Uint8Array,
  ): Promise<{ status: number; reason?: string; retryAfter?: number }> {
    const m = /^\/3\/device\/([^/?]+)$/.exec(h[":path"] ?? "");
    const token = m ? decodeURIComponent(m[1]) : "";
    const answer = await apnsCheck(h, body, token, m !== null);
    stats.apns++;
    note({ provider: "apns", token, status: answer.status, at: Date.now(), httpVersion: "2.0" });
    const collapseId = h["apns-collapse-id"] ?? null;
    if (answer.status === 200) count(`topic:${h["apns-topic"]}`, token, collapseId);
    if (answer.status === 200 && keep) {
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(h)) if (k.startsWith("apns-")) headers[k] = String(v);
      received.push({
        provider: "apns",
        topic: h["apns-topic"],
        token,
        collapseId,
        body: { headers, payload: JSON.parse(new TextDecoder().decode(body)) },
        at: Date.now(),
      });
    }
    return answer;
  }

  async function apnsCheck(
    h: Record<string, string>,
    body: Uint8Array,
    token: string,
    pathOk: boolean,
  ): Promise<{ status: number; reason?: string; retryAfter?: number }> {
    if (h[":method"] !== "POST") return { status: 405, reason: "MethodNotAllowed" };
    if (!pathOk) return { status: 404, reason: "BadPath" };
    const auth = /^bearer (.+)$/i.exec(h["authorization"] ?? "")?.[1];
    if (!auth) return { status: 403, reason: "MissingProviderToken" };
    let kid: string | undefined;
    try {
      const header = decodeProtectedHeader(auth);
      if (header.alg !== "ES256") return { status: 403, reason: "InvalidProviderToken" };
      kid = header.kid;
    } catch {
      return { status: 403, reason: "InvalidProviderToken" };
    }
    const key = kid ? apnsKeys.get(kid) : undefined;
    if (!key) return { status: 403, reason: "InvalidProviderToken" };
    key.key ??= await importJWK(key.publicJwk, "ES256");
    let iat: number;
    try {
      const { payload } = await jwtVerify(auth, key.key, {
        issuer: key.teamId,
        algorithms: ["ES256"],
      });
      if (typeof payload.iat !== "number") return { status: 403, reason: "InvalidProviderToken" };
      iat = payload.iat;
    } catch {
      return { status: 403, reason: "InvalidProviderToken" };
    }
    if (iat * 1000 < Date.now() - 3600_000 || iat <= key.expiredIat) {
      return { status: 403, reason: "ExpiredProviderToken" };
    }
    key.newestIat = Math.max(key.newestIat, iat);
    const topic = h["apns-topic"];
    if (!topic) return { status: 400, reason: "MissingTopic" };
    if (topic !== key.bundleId) return { status: 400, reason: "TopicDisallowed" };
    const pushType = h["apns-push-type"];
    if (pushType !== undefined && !PUSH_TYPES.has(pushType)) {
      return { status: 400, reason: "InvalidPushType" };
    }
    const priority = h["apns-priority"];
    if (priority !== undefined && !["1", "5", "10"].includes(priority)) {
      return { status: 400, reason: "BadPriority" };
    }
    const expiration = h["apns-expiration"];
    if (expiration !== undefined && !/^\d+$/.test(expiration)) {
      return { status: 400, reason: "BadExpirationDate" };
    }
    const collapse = h["apns-collapse-id"];
    if (collapse !== undefined && new TextEncoder().encode(collapse).byteLength > 64) {
      return { status: 400, reason: "BadCollapseId" };
    }
    const id = h["apns-id"];
    if (
      id !== undefined &&
      !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)
    ) {
      return { status: 400, reason: "BadMessageId" };
    }
    if (body.byteLength === 0) return { status: 400, reason: "PayloadEmpty" };
    if (body.byteLength > 4096) return { status: 413, reason: "PayloadTooLarge" };
    let payload: Record<string, unknown>;
    try {
      payload = JSON.parse(new TextDecoder().decode(body));
    } catch {
      return { status: 400, reason: "PayloadEmpty" };
    }
    const aps = payload.aps as Record<string, unknown> | undefined;
    if (typeof aps !== "object" || aps === null) return { status: 400, reason: "PayloadEmpty" };
    if ((pushType ?? "alert") === "alert" && aps.alert === undefined) {
      return { status: 400, reason: "PayloadEmpty" };
    }
    if (!/^[0-9a-fA-F]{64,200}$/.test(token)) return { status: 400, reason: "BadDeviceToken" };
    const s = scripted(token);
    if (s?.code === "dead") return { status: 410, reason: "Unregistered" };
    if (s) {
      return {
        status: s.status,
        reason: s.code ??
          (s.status === 429
            ? "TooManyRequests"
            : s.status === 503
            ? "ServiceUnavailable"
            : "InternalServerError"),
        retryAfter: s.retryAfter,
      };
    }
    return { status: 200 };
  }

  async function control(req: Request, path: string): Promise<Response> {
    const q = new URL(req.url).searchParams;
    const json = req.method === "POST" ? await req.json().catch(() => ({})) : {};
    switch (`${req.method} ${path}`) {
      case "POST /_fake/fcm/accounts": {
        const projectId = String(json.projectId ?? `project-${randomHex(4)}`);
        const pair = await crypto.subtle.generateKey(
          {
            name: "RSASSA-PKCS1-v1_5",
            modulusLength: 2048,
            publicExponent: new Uint8Array([1, 0, 1]),
            hash: "SHA-256",
          },
          true,
          ["sign", "verify"],
        );
        const keyId = randomHex(20);
        const email = `push-sender@${projectId}.iam.gserviceaccount.com`;
        const account: Account = {
          projectId,
          email,
          keyId,
          publicJwk: await crypto.subtle.exportKey("jwk", pair.publicKey) as JWK,
        };
        accounts.set(email, account);
        projects.set(projectId, account);
        return Response.json({
          type: "service_account",
          project_id: projectId,
          private_key_id: keyId,
          private_key: await exportPKCS8(pair.privateKey),
          client_email: email,
          client_id: randomHex(10),
          auth_uri: "https://accounts.google.com/o/oauth2/auth",
          token_uri: `${url}/token`,
        });
      }
      case "POST /_fake/fcm/revoke": {
        const account = projects.get(String(json.projectId));
        if (account) accounts.delete(account.email);
        return Response.json({ ok: true });
      }
      case "POST /_fake/apns/keys": {
        const pair = await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, [
          "sign",
          "verify",
        ]);
        const key: ApnsKey = {
          teamId: String(json.teamId ?? randomUpper(10)),
          keyId: randomUpper(10),
          bundleId: String(json.bundleId ?? "com.example.game"),
          publicJwk: await crypto.subtle.exportKey("jwk", pair.publicKey) as JWK,
          newestIat: 0,
          expiredIat: 0,
        };
        apnsKeys.set(key.keyId, key);
        return Response.json({
          teamId: key.teamId,
          keyId: key.keyId,
          bundleId: key.bundleId,
          privateKey: pem("PRIVATE KEY", await crypto.subtle.exportKey("pkcs8", pair.privateKey)),
        });
      }
      case "POST /_fake/script": {
        const token = String(json.token);
        if (json.unregistered) dead.add(token);
        if (Array.isArray(json.answers)) scripts.set(token, [...json.answers]);
        return Response.json({ ok: true });
      }
      case "POST /_fake/fcm/expire-tokens": {
        for (const [t, g] of accessTokens) {
          if (g.projectId === json.projectId) accessTokens.delete(t);
        }
        return Response.json({ ok: true });
      }
      case "POST /_fake/apns/expire-tokens": {
        const key = apnsKeys.get(String(json.keyId));
        if (key) key.expiredIat = key.newestIat;
        return Response.json({ ok: true });
      }
      case "POST /_fake/delay":
        delayMs = Number(json.ms ?? 0);
        return Response.json({ ok: true });
      case "GET /_fake/received": {
        const project = q.get("project");
        const topic = q.get("topic");
        return Response.json(
          received.filter((r) =>
            (project !== null && r.project === project) || (topic !== null && r.topic === topic)
          ),
        );
      }
      case "GET /_fake/duplicates": {
        const scope = q.get("project") !== null
          ? `project:${q.get("project")}`
          : `topic:${q.get("topic")}`;
        const t = tally.get(scope);
        return Response.json({
          tokens: t?.tokens.size ?? 0,
          messages: t?.messages ?? 0,
          duplicates: [...(t?.twice ?? [])].map(([token, c]) => ({ token, ...c })),
        });
      }
      case "GET /_fake/requests":
        return Response.json(seen.get(q.get("token") ?? "") ?? []);
      case "GET /_fake/stats":
        return Response.json({
          ...stats,
          projectTokens: tokensByProject.get(q.get("project") ?? "") ?? 0,
        });
      default:
        return Response.json({ error: `unknown control ${req.method} ${path}` }, { status: 404 });
    }
  }

  return {
    url,
    fcmEndpoint: url,
    apnsEndpoint: `https://127.0.0.1:${apnsPort}`,
    caPem: tls.ca,
    caFile: `${dir}/ca.pem`,
    async close() {
      await server.shutdown();
      await new Promise<void>((resolve) => apns.close(() => resolve()));
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    },
  };
}

/** The environment that points the platform (and the tests) at running fakes. */
export function pushFakesEnv(f: PushFakes): Record<string, string> {
  return {
    PUSH_FAKES_URL: f.url,
    FCM_ENDPOINT: f.fcmEndpoint,
    APNS_ENDPOINT: f.apnsEndpoint,
    PUSH_FAKES_CA: f.caFile,
  };
}

if (import.meta.main) {
  const fakes = await startPushFakes({ keepMessages: !Deno.args.includes("--count-only") });
  const env = pushFakesEnv(fakes);
  if (Deno.args.includes("--json")) console.log(JSON.stringify(env));
  console.log("push fakes running; point the platform at them with:");
  console.log(
    `  FCM_ENDPOINT=${env.FCM_ENDPOINT} APNS_ENDPOINT=${env.APNS_ENDPOINT} DENO_CERT=${fakes.caFile}`,
  );
  console.log(
    `  (ALLOW_PRIVATE_OUTBOUND=true; service accounts: curl -XPOST ${fakes.url}/_fake/fcm/accounts -d '{"projectId":"demo"}')`,
  );
  console.log(
    `  APNs keys: curl -XPOST ${fakes.url}/_fake/apns/keys -d '{"bundleId":"com.example.game"}'`,
  );
  Deno.addSignalListener("SIGINT", async () => {
    await fakes.close();
    Deno.exit(0);
  });
}
