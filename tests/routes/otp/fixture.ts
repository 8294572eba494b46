/** Shared set-up for OTP route tests: a tenant with an otp-scoped key and a topic. */
import { admin, callJson, seedTenant, testEnv } from "../../harness.ts";
import { randomToken } from "../../../lib/crypto/hashing.ts";
import type { Services } from "../../../lib/services.ts";
import type { TestClock } from "../../../lib/clock.ts";
import { createApp } from "../../../routes/mod.ts";

/** A tenant ready for OTP calls. */
export interface OtpTenant {
  gameIndex: number;
  keyId: string;
  apiKey: string;
  topic: string;
  /** Authorization, Topic and nothing else. */
  headers: Record<string, string>;
  /** POSTs JSON to an OTP path with this tenant's headers (plus overrides). */
  post(
    path: string,
    json: unknown,
    headers?: Record<string, string>,
    // deno-lint-ignore no-explicit-any
  ): Promise<{ status: number; body: any; headers: Headers }>;
  /** POST /otp/sms to a number of country code 82 (plus any other body fields). */
  sendSms(to: string, extra?: Record<string, unknown>): Promise<Json>;
  /** POST /otp/verify for a number of country code 82. */
  verifySms(to: string, otp: string): Promise<Json>;
}

/** Seeds a game, an otp API key and a topic (provider mode unless told otherwise). */
export async function seedOtpTenant(
  topic: Record<string, unknown> = {},
): Promise<OtpTenant> {
  await testEnv();
  const t = await seedTenant("otp game");
  const key = await t.apiKey(["otp"]);
  const name = `topic-${randomToken(6)}`;
  const created = await admin("POST", `/admin/v1/games/${t.gameIndex}/otp-topics`, {
    topic: name,
    serviceName: "Summoners War",
    mode: "provider",
    ...topic,
  });
  if (created.status !== 201) throw new Error(`seed topic failed: ${JSON.stringify(created.body)}`);
  const headers = { authorization: `bearer ${key.apiKey}`, topic: name };
  const post: OtpTenant["post"] = (path, json, extra = {}) =>
    callJson("POST", path, { json, headers: { ...headers, ...extra } });
  return {
    gameIndex: t.gameIndex,
    keyId: key.keyId,
    apiKey: key.apiKey,
    topic: name,
    headers,
    post,
    sendSms: (to, extra = {}) => post("/otp/sms", { to, toCountryNo: "82", ...extra }),
    verifySms: (to, otp) => post("/otp/verify", { to, toCountryNo: "82", otp }),
  };
}

/** A random Korean mobile number in national format (0102xxxxxxx), valid for lookup. */
export function koreanMobile(): string {
  const n = crypto.getRandomValues(new Uint32Array(1))[0] % 10_000_000;
  return `0102${String(n).padStart(7, "0")}`;
}

/** A random e-mail address. */
export function randomEmail(): string {
  return `user-${randomToken(6).toLowerCase()}@example.com`;
}

/**
 * The app over a copy of the test Services with some parts replaced (providers, limits), for
 * tests that need settings other than the process-wide configuration.
 */
export async function appWith(
  change: (s: Services) => Partial<Services> | Promise<Partial<Services>>,
): Promise<(path: string, json: unknown, headers: Record<string, string>) => Promise<Json>> {
  const { services } = await testEnv();
  const app = createApp({ ...services, ...(await change(services)) });
  return async (path, json, headers) => {
    const res = await app.request(path, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify(json),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null, headers: res.headers };
  };
}

/** A JSON answer. */
// deno-lint-ignore no-explicit-any
export type Json = { status: number; body: any; headers: Headers };

/** Runs `fn` and puts the shared test clock back where it was, whatever `fn` did to it. */
export async function keepingClock<T>(fn: (clock: TestClock) => Promise<T>): Promise<T> {
  const { clock } = await testEnv();
  const offset = clock.now() - Date.now();
  try {
    return await fn(clock);
  } finally {
    clock.set(Date.now() + offset);
  }
}
