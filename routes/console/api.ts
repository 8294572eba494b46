/**
 * The console reaches data only through the admin API, called in-process with the admin token:
 * the same validation, messages, tenancy and lib functions as any other admin client.
 */
import type { Context, Hono } from "hono";
import type { AppEnv } from "../env.ts";
import { DomainError, type ErrorKind } from "../../lib/errors.ts";

/** A failed admin call, with the API's code and message. */
export interface ApiFailure {
  ok: false;
  status: number;
  code: string;
  message: string;
}

/** The outcome of an admin call. */
// deno-lint-ignore no-explicit-any
export type ApiResult<T = any> = { ok: true; status: number; body: T } | ApiFailure;

/** An admin API client bound to one console request. */
export interface ConsoleApi {
  /** GET that must succeed (a failure is shown as the page's error). */
  // deno-lint-ignore no-explicit-any
  get<T = any>(path: string): Promise<T>;
  /** Any call; failures come back as values so forms can show the message. */
  // deno-lint-ignore no-explicit-any
  call<T = any>(method: string, path: string, json?: unknown): Promise<ApiResult<T>>;
}

const KIND_OF_STATUS: Record<number, ErrorKind> = {
  400: "invalid",
  401: "unauthorized",
  403: "forbidden",
  404: "not_found",
  409: "conflict",
  429: "rate_limited",
  502: "upstream",
  503: "unavailable",
};

/** The root app, given to the console after it is built (the console calls back into it). */
export type RootApp = () => Hono<AppEnv>;

/** Builds the client for a console request. */
export function consoleApi(c: Context<AppEnv>, root: RootApp, actor: string): ConsoleApi {
  const s = c.get("services");
  async function call(method: string, path: string, json?: unknown): Promise<ApiResult> {
    const headers: Record<string, string> = {
      authorization: `Bearer ${s.secrets.adminToken}`,
      "x-request-id": c.get("requestId"),
      "x-admin-actor": actor,
    };
    // The admin API limits wrong tokens per client address: the console's calls carry what the
    // signed-in user's address is derived from (the runtime's env, the edge's and a trusted
    // proxy's headers), so they are counted as that user, not as one shared address.
    for (const name of ["cf-connecting-ip", "x-forwarded-for"]) {
      const value = c.req.header(name);
      if (value) headers[name] = value;
    }
    let body: string | undefined;
    if (json !== undefined) {
      headers["content-type"] = "application/json";
      body = JSON.stringify(json);
    }
    const res = await root().request(path, { method, headers, body }, c.env);
    const text = await res.text();
    // deno-lint-ignore no-explicit-any
    let parsed: any = null;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      parsed = null;
    }
    if (res.ok) return { ok: true, status: res.status, body: parsed };
    return {
      ok: false,
      status: res.status,
      code: parsed?.error?.code ?? "ERROR",
      message: parsed?.error?.message ?? `request failed (${res.status})`,
    };
  }
  return {
    call,
    async get(path) {
      const r = await call("GET", path);
      if (r.ok) return r.body;
      throw new DomainError(KIND_OF_STATUS[r.status] ?? "internal", r.code, r.message);
    },
  };
}
