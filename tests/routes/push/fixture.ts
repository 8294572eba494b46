/** Shared setup of the push tests: a tenant with a push key, and a valid campaign body. */
import { callJson, seedTenant, type Tenant } from "../../harness.ts";

/** A tenant plus the headers of its push API key. */
export interface PushTenant {
  tenant: Tenant;
  headers: Record<string, string>;
}

/** Seeds a game with one app and an API key of scope push. */
export async function pushTenant(): Promise<PushTenant> {
  const tenant = await seedTenant("push game");
  const { apiKey } = await tenant.apiKey(["push"]);
  return { tenant, headers: { authorization: `bearer ${apiKey}` } };
}

/** A valid bulk campaign for the tenant; `patch` replaces top-level fields. */
export function campaignBody(t: PushTenant, patch: Record<string, unknown> = {}) {
  return {
    company: "com2us",
    companyIndex: 7,
    description: "spring event",
    notice: false,
    type: "B",
    registrant: { id: "operator-1", name: "Operator" },
    reservation: {
      localizing: false,
      startDate: "2027-05-03",
      endDate: "2027-05-09",
      time: "10:00",
      repeat: false,
    },
    continents: [],
    countries: ["KR"],
    game: { gameindex: t.tenant.gameIndex, apps: [{ appindex: 1, appid: t.tenant.appid }] },
    defaultLanguage: "en",
    notification: {
      en: {
        android: { title: "Hello", message: "Spring event starts" },
        ios: { title: "Hello", message: "Spring event starts" },
      },
    },
    ...patch,
  };
}

/** POST /push/campaigns with the tenant's key. */
export function postCampaign(t: PushTenant, body: unknown) {
  return callJson("POST", "/push/campaigns", { json: body, headers: t.headers });
}

/** Replaces one field of the reservation. */
export function withReservation(t: PushTenant, patch: Record<string, unknown>) {
  const body = campaignBody(t);
  return { ...body, reservation: { ...body.reservation, ...patch } };
}

/** POST /push/targets: a targeting record for the tenant's game; `patch` replaces fields. */
export function createTargeting(t: PushTenant, patch: Record<string, unknown> = {}) {
  return callJson("POST", "/push/targets", {
    headers: t.headers,
    json: {
      company: "gamevil",
      companyIndex: 3,
      registrant: { id: "op-7", name: "Kim" },
      description: "returning players",
      game: { gameindex: t.tenant.gameIndex },
      ...patch,
    },
  });
}
