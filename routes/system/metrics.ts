/** GET /metrics: Prometheus text exposition, for the admin token or METRICS_TOKEN. */
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv } from "../env.ts";
import { jsonResponse } from "../env.ts";
import { parseAuthorization } from "../auth.ts";
import { DomainError } from "../../lib/errors.ts";
import { equalFixed, sha256Hex } from "../../lib/crypto/hashing.ts";

const AdminError = z.object({ error: z.object({ code: z.string(), message: z.string() }) });

const route = createRoute({
  method: "get",
  path: "/metrics",
  tags: ["system"],
  operationId: "getMetrics",
  summary: "Prometheus metrics of this instance",
  description:
    "Request counts and latency per route and status, outbound calls, item deliveries, chain transactions, callbacks, OTP and push counts and scheduler run durations. Bearer admin token or METRICS_TOKEN.",
  security: [{ adminToken: [] }, { metricsToken: [] }],
  responses: {
    200: {
      description: "Prometheus text format 0.0.4",
      content: { "text/plain": { schema: z.string() } },
    },
    401: jsonResponse(AdminError, "token missing or invalid"),
  },
});

/** Registers the metrics route. */
export function registerMetrics(app: OpenAPIHono<AppEnv>) {
  app.openapi(route, async (c) => {
    const s = c.get("services");
    const auth = parseAuthorization(c.req.header("authorization"));
    if (!auth || auth.scheme !== "bearer" || !auth.token) {
      throw new DomainError("unauthorized", "UNAUTHORIZED", "bearer token required");
    }
    const presented = await sha256Hex(auth.token);
    const metricsHash = s.config.METRICS_TOKEN ? await sha256Hex(s.config.METRICS_TOKEN) : "";
    // Both comparisons always run, so timing does not say which token was close.
    const asAdmin = equalFixed(presented, s.adminTokenHash);
    const asMetrics = metricsHash !== "" && equalFixed(presented, metricsHash);
    if (!asAdmin && !asMetrics) {
      throw new DomainError("unauthorized", "UNAUTHORIZED", "metrics token invalid");
    }
    const text = await s.metrics.render();
    return c.body(text, 200, { "content-type": s.metrics.contentType });
  });
}
