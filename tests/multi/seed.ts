/**
 * What the many-instances tier and the load scripts set up on a cluster: a game with an app and an
 * API key, push credentials at the fakes, devices written straight to the database, a bulk
 * campaign made due at once, and item request bodies.
 */
import type pg from "pg";
import type { Cluster } from "./cluster.ts";
import { randomToken } from "../../lib/crypto/hashing.ts";

/** A seeded game. */
export interface SeededGame {
  gameIndex: number;
  appid: string;
  clientId: string;
  clientSecret: string;
  keyId: string;
  apiKey: string;
}

/** A game with one app and an API key of `scopes`, through instance 0's admin API. */
export async function seedGame(
  cluster: Cluster,
  name: string,
  scopes: string[],
): Promise<SeededGame> {
  const game = await cluster.admin(0, "POST", "/admin/v1/games", { name });
  if (game.status !== 201) throw new Error(`game: ${JSON.stringify(game.body)}`);
  const gameIndex = game.body.gameIndex as number;
  const appid = `multi-${randomToken(6).toLowerCase().replace(/[^a-z0-9]/g, "x")}`;
  const app = await cluster.admin(0, "POST", `/admin/v1/games/${gameIndex}/apps`, { appid });
  if (app.status !== 201) throw new Error(`app: ${JSON.stringify(app.body)}`);
  const key = await cluster.admin(0, "POST", `/admin/v1/games/${gameIndex}/api-keys`, { scopes });
  if (key.status !== 201) throw new Error(`key: ${JSON.stringify(key.body)}`);
  return {
    gameIndex,
    appid,
    clientId: app.body.clientId,
    clientSecret: app.body.clientSecret,
    keyId: key.body.keyId,
    apiKey: key.body.apiKey,
  };
}

/** An item request body of the game: one gold to player-`k`. */
export function itemRequestBody(gameIndex: number, k: number) {
  return {
    transactionId: `multi-${k}-${randomToken(6)}`,
    gameIndex,
    idCategory: "vid",
    id: `player-${k}`,
    detail: [{ action: "send", assetCode: "gold", amount: 1 }],
    reason: "e",
    serverId: "s1",
  };
}

/**
 * FCM and APNs credentials made at the fakes for the game's app, and `devices` devices written
 * straight to the database (70 % Android, 30 % iOS; registration is not what is measured).
 */
export async function seedPushDevices(
  cluster: Cluster,
  db: pg.Client,
  g: SeededGame,
  options: { fakesUrl: string; devices: number },
): Promise<{ projectId: string; bundleId: string }> {
  const post = async (path: string, body: unknown) =>
    await (await fetch(`${options.fakesUrl}${path}`, {
      method: "POST",
      body: JSON.stringify(body),
    })).json();
  const projectId = `multi-${randomToken(5)}`.toLowerCase().replace(/[^a-z0-9-]/g, "x");
  const bundleId = `com.example.${projectId.replace(/-/g, "")}`;
  const serviceAccount = await post("/_fake/fcm/accounts", { projectId });
  const key = await post("/_fake/apns/keys", { bundleId });
  const creds = await cluster.admin(0, "PUT", `/admin/v1/push/apps/${g.appid}/credentials`, {
    fcm: { serviceAccount },
    apns: { ...key, bundleId, production: false },
  });
  if (creds.status !== 200) throw new Error(`credentials: ${JSON.stringify(creds.body)}`);
  await db.query(
    `insert into push_devices (game_index, appid, token, platform, country, zone, language)
     select $1, $2,
       case when g % 10 < 7 then 'm' || g || ':APA91b' || md5(g::text || $4)
            else md5(g::text || $4) || md5((g + 1)::text || $4) end,
       case when g % 10 < 7 then 'android' else 'ios' end,
       'KR', 'Asia/Seoul', 'en'
     from generate_series(1, $3) as g`,
    [g.gameIndex, g.appid, options.devices, projectId],
  );
  return { projectId, bundleId };
}

/**
 * Registers a bulk campaign to KR for the game's app through instance `i` and makes its slice due
 * at once (the schedule has its own tests); answers its id and uuid.
 */
export async function dueCampaign(
  cluster: Cluster,
  db: pg.Client,
  g: SeededGame,
  i = 0,
): Promise<{ id: number; uuid: string }> {
  // A sending instant two minutes ahead in Asia/Seoul (the registration refuses a past one).
  const seoul = new Date(Date.now() + 9 * 3600_000 + 120_000).toISOString();
  const text = { title: "Hi", message: "Multi" };
  const campaign = await cluster.call(i, "POST", "/push/campaigns", {
    headers: { authorization: `Bearer ${g.apiKey}` },
    json: {
      company: "com2us",
      companyIndex: 1,
      description: "multi",
      type: "B",
      registrant: { id: "op" },
      reservation: {
        localizing: false,
        startDate: seoul.slice(0, 10),
        endDate: seoul.slice(0, 10),
        time: seoul.slice(11, 16),
        repeat: false,
      },
      continents: [],
      countries: ["KR"],
      game: { gameindex: g.gameIndex, apps: [{ appindex: 1, appid: g.appid }] },
      defaultLanguage: "en",
      notification: { en: { android: text, ios: text } },
    },
  });
  if (campaign.status !== 200) throw new Error(`campaign: ${JSON.stringify(campaign.body)}`);
  await db.query("update push_slices set send_at = now() where campaign_id = $1", [
    campaign.body.id,
  ]);
  return { id: campaign.body.id, uuid: campaign.body.uuid };
}
