/**
 * Admin push routes: the log sink's outbox, and per-app provider credentials (FCM service account,
 * APNs key) stored sealed and never returned.
 */
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv, JsonResponse } from "../env.ts";
import { jsonResponse } from "../env.ts";
import { recentLogMessages } from "../../lib/push/sinks.ts";
import {
  CredentialsBody,
  deleteCredentials,
  getCredentials,
  putCredentials,
} from "../../lib/push/credentials.ts";

const route = createRoute({
  method: "get",
  path: "/admin/v1/push/outbox",
  tags: ["admin"],
  summary: "Newest push messages delivered to the log sink, newest first",
  request: {
    query: z.object({ limit: z.coerce.number().int().min(1).max(1000).default(100) }),
  },
  responses: {
    200: jsonResponse(
      z.object({ messages: z.array(z.record(z.string(), z.unknown())) }),
      "messages",
    ),
  },
});

const AppParam = z.object({ appid: z.string().min(1).max(200) });
const ProviderError = z.object({ reason: z.string(), at: z.string() }).nullable()
  .describe("why the provider refused these credentials; sends for the app stop until replaced");
const CredentialsView = z.object({
  appid: z.string(),
  fcm: z.object({
    configured: z.literal(true),
    projectId: z.string(),
    clientEmail: z.string(),
    fingerprint: z.string().describe("RFC 7638 thumbprint of the public key"),
    error: ProviderError,
  }).nullable(),
  apns: z.object({
    configured: z.literal(true),
    teamId: z.string(),
    keyId: z.string(),
    bundleId: z.string(),
    production: z.boolean(),
    fingerprint: z.string(),
    error: ProviderError,
  }).nullable(),
  updatedAt: z.string(),
});

/** A request as a studio sends it: the service-account file as downloaded, and the .p8 key. */
const CREDENTIALS_EXAMPLE = {
  fcm: {
    serviceAccount: {
      type: "service_account",
      project_id: "my-game-push",
      private_key_id: "4f1c2e0d9b8a7f6e5d4c3b2a1f0e9d8c7b6a5f4e",
      private_key:
        "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC...\n-----END PRIVATE KEY-----\n",
      client_email: "push-sender@my-game-push.iam.gserviceaccount.com",
      token_uri: "https://oauth2.googleapis.com/token",
    },
  },
  apns: {
    teamId: "ABCDE12345",
    keyId: "KEY1234567",
    privateKey:
      "-----BEGIN PRIVATE KEY-----\nMIGTAgEAMBMGByqGSM49AgEGCCqGSM49...\n-----END PRIVATE KEY-----\n",
    bundleId: "com.example.mygame",
    production: true,
  },
};

const putRoute = createRoute({
  method: "put",
  path: "/admin/v1/push/apps/{appid}/credentials",
  tags: ["admin"],
  summary:
    "Store an app's FCM service account and/or APNs key (sealed; a provider not given is kept)",
  request: {
    params: AppParam,
    body: {
      required: true,
      content: { "application/json": { schema: CredentialsBody, example: CREDENTIALS_EXAMPLE } },
    },
  },
  responses: {
    200: jsonResponse(CredentialsView, "stored; secrets are never returned"),
    400: { description: "a field is invalid; error.message names it" },
    404: { description: "no such app" },
  },
});

const getRoute = createRoute({
  method: "get",
  path: "/admin/v1/push/apps/{appid}/credentials",
  tags: ["admin"],
  summary: "Which provider credentials an app has (never the secrets)",
  request: { params: AppParam },
  responses: {
    200: jsonResponse(CredentialsView, "the credentials' public parts"),
    404: { description: "no such app, or no credentials" },
  },
});

const deleteRoute = createRoute({
  method: "delete",
  path: "/admin/v1/push/apps/{appid}/credentials",
  tags: ["admin"],
  summary: "Delete an app's credentials (both, or one provider with ?provider=fcm|apns)",
  request: {
    params: AppParam,
    query: z.object({ provider: z.enum(["fcm", "apns", "all"]).default("all") }),
  },
  responses: {
    204: { description: "deleted" },
    404: { description: "no such app, or no credentials" },
  },
});

/** Registers the push admin routes. */
export function registerPushAdmin(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) => {
    const messages = await recentLogMessages(c.get("services").db, c.req.valid("query").limit);
    return c.json({ messages }, 200) as JsonResponse;
  });
  app.openapi(putRoute, async (c) => {
    const view = await putCredentials(
      c.get("services"),
      c.req.valid("param").appid,
      c.req.valid("json"),
    );
    return c.json(view, 200) as JsonResponse;
  });
  app.openapi(getRoute, async (c) => {
    const view = await getCredentials(c.get("services"), c.req.valid("param").appid);
    return c.json(view, 200) as JsonResponse;
  });
  app.openapi(deleteRoute, async (c) => {
    await deleteCredentials(
      c.get("services"),
      c.req.valid("param").appid,
      c.req.valid("query").provider,
    );
    return c.body(null, 204);
  });
}
