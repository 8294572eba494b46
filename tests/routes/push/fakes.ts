/**
 * The push provider fakes for tests: the ones dev/run_tests.ts started (PUSH_FAKES_URL), or, when
 * a test file runs on its own, fakes started in this process before the harness reads the env.
 */
import {
  pushFakesEnv,
  type Received,
  type ScriptedAnswer,
  type SeenRequest,
} from "../../../dev/push_fakes.ts";
import { startPushFakes } from "../../../dev/push_fakes.ts";
import { admin, callJson, testEnv } from "../../harness.ts";
import { dispatchDuePushes } from "../../../lib/push/dispatch.ts";
import type { PushTenant } from "./fixture.ts";
import { randomToken } from "../../../lib/crypto/hashing.ts";

/** Client of the fakes' control API. */
export interface FakesClient {
  url: string;
  serviceAccount(projectId: string): Promise<Record<string, string>>;
  apnsKey(
    bundleId: string,
  ): Promise<{ teamId: string; keyId: string; privateKey: string; bundleId: string }>;
  script(token: string, answers: ScriptedAnswer[], unregistered?: boolean): Promise<void>;
  received(query: { project?: string; topic?: string }): Promise<Received[]>;
  /** Tokens of a project or topic that accepted messages, and those that accepted more than one. */
  duplicates(query: { project?: string; topic?: string }): Promise<Duplicates>;
  requests(token: string): Promise<SeenRequest[]>;
  post(path: string, body: unknown): Promise<void>;
  /** Access tokens the OAuth fake issued for a project. */
  tokensIssued(projectId: string): Promise<number>;
}

/** What GET /_fake/duplicates answers. */
export interface Duplicates {
  tokens: number;
  messages: number;
  duplicates: { token: string; copies: number; collapseIds: (string | null)[] }[];
}

let started: Promise<string> | undefined;

async function baseUrl(): Promise<string> {
  const url = Deno.env.get("PUSH_FAKES_URL");
  if (url) return url;
  started ??= (async () => {
    const fakes = await startPushFakes();
    for (const [k, v] of Object.entries(pushFakesEnv(fakes))) Deno.env.set(k, v);
    return fakes.url;
  })();
  return await started;
}

/** The fakes' control client; call it at module top level, before the harness builds Services. */
export async function pushFakes(): Promise<FakesClient> {
  const url = await baseUrl();
  const post = async (path: string, body: unknown) => {
    const res = await fetch(`${url}${path}`, { method: "POST", body: JSON.stringify(body) });
    if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    return await res.json();
  };
  const get = async (path: string) => await (await fetch(`${url}${path}`)).json();
  return {
    url,
    serviceAccount: (projectId) => post("/_fake/fcm/accounts", { projectId }),
    apnsKey: (bundleId) => post("/_fake/apns/keys", { bundleId }),
    async script(token, answers, unregistered = false) {
      await post("/_fake/script", { token, answers, unregistered });
    },
    received: (q) => get(`/_fake/received?${new URLSearchParams(q as Record<string, string>)}`),
    duplicates: (q) => get(`/_fake/duplicates?${new URLSearchParams(q as Record<string, string>)}`),
    requests: (token) => get(`/_fake/requests?token=${encodeURIComponent(token)}`),
    async post(path, body) {
      await post(path, body);
    },
    tokensIssued: async (projectId) =>
      (await get(`/_fake/stats?project=${encodeURIComponent(projectId)}`)).projectTokens,
  };
}

/** A fresh FCM-style registration token. */
export function fcmToken(): string {
  return `f${randomToken(8)}:APA91b${randomToken(40)}`.replace(/[^A-Za-z0-9_:\-]/g, "x");
}

/** A fresh APNs device token (64 hex digits). */
export function apnsToken(): string {
  return [...crypto.getRandomValues(new Uint8Array(32))]
    .map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** Stores FCM and/or APNs credentials for an app made at the fakes; answers their identifiers. */
export async function providerCredentials(
  fk: FakesClient,
  appid: string,
  which: { fcm?: boolean; apns?: boolean } = { fcm: true, apns: true },
) {
  const projectId = `proj-${randomToken(5)}`.toLowerCase().replace(/[^a-z0-9-]/g, "x");
  const bundleId = `com.example.${projectId.replace(/-/g, "")}`;
  const serviceAccount = which.fcm ? await fk.serviceAccount(projectId) : undefined;
  const key = which.apns ? await fk.apnsKey(bundleId) : undefined;
  const res = await admin("PUT", `/admin/v1/push/apps/${appid}/credentials`, {
    ...(serviceAccount ? { fcm: { serviceAccount } } : {}),
    ...(key
      ? {
        apns: {
          teamId: key.teamId,
          keyId: key.keyId,
          privateKey: key.privateKey,
          bundleId,
          production: false,
        },
      }
      : {}),
  });
  if (res.status !== 200) throw new Error(`credentials: ${JSON.stringify(res.body)}`);
  return { projectId, bundleId, serviceAccount, key, view: res.body };
}

/** Registers a device of the tenant's app (country KR unless given); answers its id. */
export async function registerDevice(t: PushTenant, body: Record<string, unknown>) {
  const r = await callJson("POST", "/push/v1/devices", {
    headers: t.headers,
    json: { appid: t.tenant.appid, country: "KR", ...body },
  });
  if (r.status !== 200) throw new Error(`device: ${JSON.stringify(r.body)}`);
  return r.body as { id: number };
}

/** Runs the dispatcher with the clock at `ms`. */
export async function dispatchAt(ms: number) {
  const { services, clock } = await testEnv();
  try {
    clock.set(ms);
    return await dispatchDuePushes(services, clock.now());
  } finally {
    clock.reset();
  }
}

/** The instant the fixture's campaign (10:00 Asia/Seoul) is due on 2027-05-`day`. */
export function dueOn(day: number): number {
  return Date.UTC(2027, 4, day, 1) + 1000;
}

/** The fixture's reservation moved to 2027-05-`day`. */
export function reservationOn(day: number) {
  const date = `2027-05-${String(day).padStart(2, "0")}`;
  return { localizing: false, startDate: date, endDate: date, time: "10:00", repeat: false };
}
