/** Mounts the push family: campaigns, targeting and devices, all behind an API key with scope push. */
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../env.ts";
import { createFamilyApp } from "../env.ts";
import { pushFamily, pushUuidHeader } from "./envelope.ts";
import { requireApiKey } from "../auth.ts";
import { registerCampaigns } from "./campaigns.ts";
import { registerTargets } from "./targets.ts";
import { registerTargetData } from "./target_data.ts";
import { registerDevices } from "./devices.ts";
import { registerCampaignReads } from "./campaign_reads.ts";
import { registerTargetRead } from "./target_read.ts";
import { registerDeviceRead } from "./device_read.ts";

/** Builds the push sub-app. */
export function pushRoutes(): OpenAPIHono<AppEnv> {
  const app = createFamilyApp(pushFamily);
  app.use("/push/*", pushUuidHeader);
  app.use("/push/*", requireApiKey("push"));
  registerCampaigns(app);
  registerTargets(app);
  registerTargetData(app);
  registerDevices(app);
  registerCampaignReads(app);
  registerTargetRead(app);
  registerDeviceRead(app);
  return app;
}
