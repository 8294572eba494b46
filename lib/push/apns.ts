/**
 * APNs token-based provider API over HTTP/2: an ES256 provider token (`iss` team id, `kid` key id)
 * reused for up to 50 minutes (Apple refuses tokens older than an hour and renewals more often
 * than every 20 minutes), then `POST /3/device/{token}` per device with the answers handled as
 * Apple documents them.
 */
import { importPKCS8, SignJWT } from "jose";
import type { ApnsSecret } from "./credentials.ts";
import { CredentialError } from "./credentials.ts";
import { APNS_MAX_PAYLOAD, type ApnsRequest } from "./message.ts";
import {
  PauseGate,
  type ProviderCall,
  retryDelayMs,
  type RetryPolicy,
  type SendOutcome,
  sleep,
  waitToRetry,
} from "./provider_http.ts";

/** Apple's production and development endpoints (APNS_ENDPOINT overrides both). */
export const APNS_PRODUCTION = "https://api.push.apple.com";
export const APNS_SANDBOX = "https://api.sandbox.push.apple.com";
/** How long one provider token is reused. */
export const PROVIDER_TOKEN_REUSE_MS = 50 * 60_000;

/** Reasons that mean the device token is dead: the device is deactivated. */
const DEAD_TOKEN = new Set(["BadDeviceToken", "Unregistered", "DeviceTokenNotForTopic"]);
/** Reasons that mean the key, team or bundle id are wrong: the app's APNs sends stop. */
const CREDENTIAL_REASONS = new Set([
  "InvalidProviderToken",
  "MissingProviderToken",
  "BadCertificate",
  "BadCertificateEnvironment",
  "Forbidden",
  "TopicDisallowed",
  "BadTopic",
  "MissingTopic",
]);

function reasonOf(text: string): string {
  try {
    return (JSON.parse(text) as { reason?: string }).reason ?? "";
  } catch {
    return "";
  }
}

/** Sends APNs requests for one app's key. */
export class ApnsSender {
  private token: { value: string; issuedAt: number } | null = null;
  private pending: Promise<string> | null = null;
  private readonly gate = new PauseGate();
  /** Provider tokens signed (for the tests and the logs). */
  tokensSigned = 0;

  constructor(
    private readonly secret: ApnsSecret,
    private readonly env: { http2: ProviderCall; endpoint: string; policy: RetryPolicy },
  ) {}

  /** The current provider token, signed anew when older than 50 minutes. */
  providerToken(): Promise<string> {
    if (this.token && Date.now() - this.token.issuedAt < PROVIDER_TOKEN_REUSE_MS) {
      return Promise.resolve(this.token.value);
    }
    this.pending ??= this.sign().finally(() => this.pending = null);
    return this.pending;
  }

  private async sign(): Promise<string> {
    this.tokensSigned++;
    const key = await importPKCS8(this.secret.privateKey, "ES256");
    const issuedAt = Date.now();
    const value = await new SignJWT({})
      .setProtectedHeader({ alg: "ES256", kid: this.secret.keyId })
      .setIssuer(this.secret.teamId)
      .setIssuedAt(Math.floor(issuedAt / 1000))
      .sign(key);
    this.token = { value, issuedAt };
    return value;
  }

  /** Sends one notification; throws CredentialError when the key or topic is refused. */
  async send(deviceToken: string, req: ApnsRequest): Promise<SendOutcome> {
    const body = JSON.stringify(req.payload);
    const size = new TextEncoder().encode(body).byteLength;
    if (size > APNS_MAX_PAYLOAD) {
      return {
        state: "failed",
        attempts: 0,
        detail: `payload is ${size} bytes; APNs allows ${APNS_MAX_PAYLOAD}`,
      };
    }
    const url = `${this.env.endpoint}/3/device/${encodeURIComponent(deviceToken)}`;
    const policy = this.env.policy;
    let renewed = false;
    let attempts = 0;
    let last = "";
    while (attempts < policy.maxAttempts) {
      await this.gate.pass();
      const token = await this.providerToken();
      attempts++;
      let res;
      try {
        res = await this.env.http2(url, {
          method: "POST",
          headers: {
            authorization: `bearer ${token}`,
            "content-type": "application/json",
            ...req.headers,
            "apns-topic": this.secret.bundleId,
          },
          body,
          timeoutMs: policy.timeoutMs,
        });
      } catch (err) {
        last = `network: ${(err as Error).message}`;
        if (attempts < policy.maxAttempts) await sleep(retryDelayMs(policy, attempts, null));
        continue;
      }
      if (res.status === 200) return { state: "sent", attempts };
      const reason = reasonOf(res.text);
      last = `${res.status} ${reason}`.trim();
      if (reason === "ExpiredProviderToken") {
        if (renewed) {
          throw new CredentialError("apns", `APNs refused a fresh provider token: ${last}`);
        }
        renewed = true;
        if (this.token?.value === token) this.token = null;
        attempts--;
        continue;
      }
      if (DEAD_TOKEN.has(reason) || res.status === 410) {
        return { state: "invalid", attempts, detail: last };
      }
      if (CREDENTIAL_REASONS.has(reason) || res.status === 403) {
        throw new CredentialError("apns", `APNs refused the key or topic: ${last}`);
      }
      if (res.status === 429 || res.status >= 500) {
        const refused = await waitToRetry(res, { attempts, policy, gate: this.gate, last });
        if (refused) return refused;
        continue;
      }
      return { state: "failed", attempts, detail: last };
    }
    return { state: "failed", attempts, detail: `gave up after ${attempts} attempts: ${last}` };
  }
}
