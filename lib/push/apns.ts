/**
 * APNs token-based provider API over HTTP/2: an ES256 provider token (`iss` team id, `kid` key id)
 * reused for up to 50 minutes (Apple refuses tokens older than an hour and renewals more often
 * than every 20 minutes), then `POST /3/device/{token}` per device with the answers handled as
 * Apple documents them.
 */
import { importPKCS8, SignJWT } from "jose";
import type { ApnsSecret } from "./credentials.ts";
import { APNS_MAX_PAYLOAD, type PreparedApns } from "./message.ts";
import {
  type AnswerVerdict,
  AuthTokenCache,
  type ProviderCall,
  ProviderChannel,
  type RetryPolicy,
  type SendOutcome,
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
  /** The provider's retry policy, pause gate and provider token. */
  readonly channel: ProviderChannel;

  constructor(
    private readonly secret: ApnsSecret,
    private readonly env: { http2: ProviderCall; endpoint: string; policy: RetryPolicy },
  ) {
    const tokens = new AuthTokenCache(async () => ({
      value: await this.sign(),
      renewAt: Date.now() + PROVIDER_TOKEN_REUSE_MS,
    }));
    this.channel = new ProviderChannel("apns", env.policy, tokens);
  }

  private async sign(): Promise<string> {
    const key = await importPKCS8(this.secret.privateKey, "ES256");
    return await new SignJWT({})
      .setProtectedHeader({ alg: "ES256", kid: this.secret.keyId })
      .setIssuer(this.secret.teamId)
      .setIssuedAt(Math.floor(Date.now() / 1000))
      .sign(key);
  }

  /**
   * Sends one notification (headers besides authorization and apns-topic, JSON body); rejects
   * with CredentialError when the key or topic is refused.
   */
  send(deviceToken: string, req: PreparedApns): Promise<SendOutcome> {
    if (req.size > APNS_MAX_PAYLOAD) {
      return Promise.resolve({
        state: "failed",
        attempts: 0,
        detail: `payload is ${req.size} bytes; APNs allows ${APNS_MAX_PAYLOAD}`,
      });
    }
    const url = `${this.env.endpoint}/3/device/${encodeURIComponent(deviceToken)}`;
    const topic = this.secret.bundleId;
    const body = req.body;
    return this.channel.send({
      request: (token) =>
        this.env.http2(url, {
          method: "POST",
          headers: {
            authorization: `bearer ${token}`,
            "content-type": "application/json",
            ...req.headers,
            "apns-topic": topic,
          },
          body,
          timeoutMs: this.env.policy.timeoutMs,
        }),
      read: (res) => {
        if (res.status === 200) return { verdict: "sent", last: "" };
        const reason = reasonOf(res.text);
        const last = `${res.status} ${reason}`.trim();
        const verdict: AnswerVerdict = reason === "ExpiredProviderToken"
          ? "renew"
          : DEAD_TOKEN.has(reason) || res.status === 410
          ? "invalid"
          : CREDENTIAL_REASONS.has(reason) || res.status === 403
          ? { credentials: `APNs refused the key or topic: ${last}` }
          : res.status === 429 || res.status >= 500
          ? "retry"
          : "failed";
        return { verdict, last };
      },
      renewedRefused: (last) => `APNs refused a fresh provider token: ${last}`,
    });
  }
}
