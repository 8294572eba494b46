/** Logs every admin change (method, path, who) without bodies, so no secret value is logged. */
import type { Context, MiddlewareHandler } from "hono";
import type { AppEnv } from "../env.ts";
import { loggedPath, routeTemplate } from "../observe.ts";

const ACTOR = /^[\x20-\x7e]{1,64}$/;

/**
 * Who made an admin call: "admin token", or the label a trusted in-process client (the console)
 * gives in X-Admin-Actor. Only admin-token holders reach this, so the label is theirs to set.
 */
export function adminActor(c: Context<AppEnv>): string {
  const label = c.req.header("x-admin-actor");
  return label && ACTOR.test(label) ? label : "admin token";
}

/** After a successful change through the admin API, logs who did what. */
export const auditAdmin: MiddlewareHandler<AppEnv> = async (c, next) => {
  await next();
  if (c.req.method === "GET" || c.req.method === "HEAD" || c.res.status >= 400) return;
  c.get("services").log.info("admin action", {
    actor: adminActor(c),
    action: `${c.req.method} ${loggedPath(c, routeTemplate(c))}`,
    status: c.res.status,
    requestId: c.get("requestId"),
  });
};
