/** Logs every admin change (method, path, who) without bodies, so no secret value is logged. */
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../env.ts";

/** After a successful change through the admin API, logs who did what. */
export const auditAdmin: MiddlewareHandler<AppEnv> = async (c, next) => {
  await next();
  if (c.req.method === "GET" || c.req.method === "HEAD" || c.res.status >= 400) return;
  c.var.services.log.info("admin action", {
    actor: "admin token",
    action: `${c.req.method} ${c.req.path}`,
    status: c.res.status,
    requestId: c.var.requestId,
  });
};
