/**
 * FCM HTTP v1: an OAuth 2.0 access token from the service account (JWT bearer grant signed RS256,
 * scope firebase.messaging, audience the account's token_uri), cached until five minutes before
 * it expires and shared by concurrent sends; then one `messages:send` per device, with the
 * answers handled as the FCM reference documents them.
 */
import { importPKCS8, SignJWT } from "jose";
import type { FcmSecret } from "./credentials.ts";
import {
  type AnswerVerdict,
  AuthTokenCache,
  CredentialError,
  type ProviderCall,
  ProviderChannel,
  retryAfterMs,
  retryDelayMs,
  type RetryPolicy,
  type SendOutcome,
  sleep,
} from "./provider_http.ts";

/** The OAuth scope FCM v1 requires. */
export const FCM_SCOPE = "https://www.googleapis.com/auth/firebase.messaging";
/** Google's FCM endpoint (FCM_ENDPOINT overrides it). */
export const FCM_DEFAULT_ENDPOINT = "https://fcm.googleapis.com";
/** A cached token is replaced this long before it expires. */
const TOKEN_MARGIN_MS = 5 * 60_000;

type FcmErrorBody = {
  error?: {
    code?: number;
    status?: string;
    message?: string;
    details?: {
      "@type"?: string;
      errorCode?: string;
      fieldViolations?: { field?: string; description?: string }[];
    }[];
  };
};

/** The FCM error code of an answer (`UNREGISTERED`, ...), else its status (`INVALID_ARGUMENT`). */
function fcmError(text: string): { code: string; message: string; tokenField: boolean } {
  let body: FcmErrorBody = {};
  try {
    body = JSON.parse(text);
  } catch { /* not JSON: judged by status alone */ }
  const details = body.error?.details ?? [];
  const fcm = details.find((d) => d["@type"]?.endsWith("google.firebase.fcm.v1.FcmError"));
  const violations = details.flatMap((d) => d.fieldViolations ?? []);
  const message = body.error?.message ?? "";
  return {
    code: fcm?.errorCode ?? body.error?.status ?? "UNKNOWN",
    message: message.slice(0, 300),
    tokenField: violations.some((v) => v.field === "message.token") ||
      /registration token/i.test(message),
  };
}

/** Sends FCM v1 messages for one app's service account. */
export class FcmSender {
  /** The provider's retry policy, pause gate and OAuth access token. */
  readonly channel: ProviderChannel;

  constructor(
    private readonly secret: FcmSecret,
    private readonly env: {
      /** FCM sends. */
      call: ProviderCall;
      /** The OAuth token endpoint. */
      tokenCall: ProviderCall;
      endpoint: string;
      policy: RetryPolicy;
    },
  ) {
    this.channel = new ProviderChannel(
      "fcm",
      env.policy,
      new AuthTokenCache(() => this.fetchToken()),
    );
  }

  /** The project's `messages:send` URL. */
  private get url(): string {
    return this.sendUrl ??= `${this.env.endpoint}/v1/projects/${
      encodeURIComponent(this.secret.projectId)
    }/messages:send`;
  }
  private sendUrl: string | undefined;

  /** A new access token from the token endpoint, due for renewal five minutes before it expires. */
  private async fetchToken(): Promise<{ value: string; renewAt: number }> {
    const nowS = Math.floor(Date.now() / 1000);
    const key = await importPKCS8(this.secret.privateKey, "RS256");
    const assertion = await new SignJWT({ scope: FCM_SCOPE })
      .setProtectedHeader({
        alg: "RS256",
        typ: "JWT",
        ...(this.secret.privateKeyId ? { kid: this.secret.privateKeyId } : {}),
      })
      .setIssuer(this.secret.clientEmail)
      .setAudience(this.secret.tokenUri)
      .setIssuedAt(nowS)
      .setExpirationTime(nowS + 3600)
      .sign(key);
    const body = new URLSearchParams({
      grant_type: "urn:ietf:params:oauth:grant-type:jwt-bearer",
      assertion,
    }).toString();
    let lastStatus = 0;
    for (let attempt = 1; attempt <= this.env.policy.maxAttempts; attempt++) {
      const res = await this.env.tokenCall(this.secret.tokenUri, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body,
        timeoutMs: this.env.policy.timeoutMs,
      });
      lastStatus = res.status;
      if (res.status === 200) {
        const json = JSON.parse(res.text) as { access_token?: string; expires_in?: number };
        if (!json.access_token) throw new Error("token endpoint answered without access_token");
        const expiresIn = (json.expires_in ?? 3600) * 1000;
        return { value: json.access_token, renewAt: Date.now() + expiresIn - TOKEN_MARGIN_MS };
      }
      if (res.status >= 400 && res.status < 500 && res.status !== 429) {
        let reason = `token endpoint answered ${res.status}`;
        try {
          const err = JSON.parse(res.text) as { error?: string; error_description?: string };
          if (err.error) {
            reason += `: ${err.error}${err.error_description ? ` (${err.error_description})` : ""}`;
          }
        } catch { /* keep the status */ }
        throw new CredentialError("fcm", `FCM service account refused: ${reason}`);
      }
      if (attempt < this.env.policy.maxAttempts) {
        await sleep(retryDelayMs(this.env.policy, attempt, retryAfterMs(res.headers, Date.now())));
      }
    }
    throw new Error(`token endpoint unavailable (last status ${lastStatus})`);
  }

  /**
   * Sends one `{message}` given as JSON text; rejects with CredentialError when the credentials
   * themselves are refused.
   */
  send(text: string): Promise<SendOutcome> {
    const url = this.url;
    return this.channel.send({
      request: (token) =>
        this.env.call(url, {
          method: "POST",
          headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
          body: text,
          timeoutMs: this.env.policy.timeoutMs,
        }),
      read: (res) => {
        if (res.status === 200) return { verdict: "sent", last: "" };
        const error = fcmError(res.text);
        const last = `${res.status} ${error.code}${error.message ? `: ${error.message}` : ""}`;
        // 401: an expired or revoked access token: fetch a new one once, then it is the credentials.
        const verdict: AnswerVerdict = res.status === 401
          ? "renew"
          : error.code === "UNREGISTERED" || (error.code === "INVALID_ARGUMENT" && error.tokenField)
          ? "invalid"
          : res.status === 403 && error.code !== "SENDER_ID_MISMATCH"
          ? { credentials: `FCM refused the service account: ${last}` }
          : res.status === 404
          ? { credentials: `FCM does not know the project: ${last}` }
          : res.status === 429 || res.status >= 500
          ? "retry"
          : "failed";
        return { verdict, last };
      },
      renewedRefused: (last) => `FCM refused the access token: ${last}`,
    });
  }
}
