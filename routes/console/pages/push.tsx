/** @jsxRuntime automatic */
/** @jsxImportSource hono/jsx */
/**
 * Push: campaigns (with each campaign's tasks drawn per time zone on a timeline), targeting
 * records, devices and delivery counts.
 */
import type { Hono } from "hono";
import type { ConsoleEnv } from "../session.ts";
import type { RootApp } from "../api.ts";
import { consoleOf } from "../render.tsx";
import {
  Badge,
  Empty,
  gamePath,
  PagedTable,
  plural,
  Table,
  when,
  whenUnix,
  whenUnixText,
} from "../layout.tsx";
import { gameOf } from "./params.ts";
import { PAGE_ROWS } from "./games.tsx";

type Slice = {
  index: number;
  sendAt: number;
  state: string;
  delivered: number;
  sentAt: string | null;
};
type Task = {
  key: string;
  sendAt: number;
  date?: string;
  time?: string;
  gmtOffset?: number;
  zones: string[] | null;
  slices: Slice[];
};

function offsetText(seconds: number | undefined): string {
  if (seconds === undefined) return "";
  const sign = seconds < 0 ? "-" : "+";
  const abs = Math.abs(seconds);
  return `UTC${sign}${String(Math.floor(abs / 3600)).padStart(2, "0")}:${
    String(Math.floor((abs % 3600) / 60)).padStart(2, "0")
  }`;
}

function zonesText(zones: string[] | null): string {
  if (!zones || zones.length === 0) return "every audience zone";
  return zones.length > 3
    ? `${zones.slice(0, 3).join(", ")} +${zones.length - 3} more`
    : zones.join(", ");
}

/** The campaign's tasks, one row per zone group, slices placed on a shared time axis. */
function Timeline({ tasks }: { tasks: Task[] }) {
  const times = tasks.flatMap((t) => t.slices.map((s) => s.sendAt));
  if (times.length === 0) {
    return (
      <div class="empty">
        <strong>No sendings scheduled</strong>This campaign has no tasks left.
      </div>
    );
  }
  const min = Math.min(...times);
  const max = Math.max(...times);
  const span = Math.max(max - min, 3600);
  const x = (t: number) => 20 + ((t - min) / span) * 960;
  return (
    <figure class="timeline" aria-label="Sendings per time zone">
      {tasks.map((t) => (
        <div class="tl-row" data-task={t.key}>
          <div class="tl-label">
            {zonesText(t.zones)}
            <small>
              {t.date ?? ""} {t.time ?? ""} local {offsetText(t.gmtOffset)} · {whenUnix(t.sendAt)}
            </small>
          </div>
          <svg
            class="tl-track"
            viewBox="0 0 1000 26"
            preserveAspectRatio="none"
            role="img"
            aria-label={`${plural(t.slices.length, "slice")} from ${whenUnixText(t.sendAt)}`}
          >
            <line x1="0" y1="13" x2="1000" y2="13" class="tl-line" />
            {t.slices.map((s) => (
              <rect
                x={x(s.sendAt) - 4}
                y="3"
                width="8"
                height="20"
                rx="2"
                class={`tl-mark ${s.state}`}
              >
                <title>
                  {`slice ${s.index + 1}: ${
                    whenUnixText(s.sendAt)
                  } · ${s.state} · ${s.delivered} delivered`}
                </title>
              </rect>
            ))}
          </svg>
        </div>
      ))}
      <figcaption class="tl-axis">
        <span>{whenUnix(min)}</span>
        <span>{whenUnix(min + span)}</span>
      </figcaption>
    </figure>
  );
}

/** Registers the push pages. */
export function registerPushPages(app: Hono<ConsoleEnv>, root: RootApp) {
  app.get("/console/g/:g/push", async (c) => {
    const k = consoleOf(c, root);
    const g = gameOf(c);
    const [campaigns, targetings, devices] = await Promise.all([
      k.api.get(`/admin/v1/games/${g}/push/campaigns?${k.listQuery("cursor", PAGE_ROWS)}`),
      k.api.get(`/admin/v1/games/${g}/push/targetings?${k.listQuery("targetings", PAGE_ROWS)}`),
      k.api.get(`/admin/v1/games/${g}/push/devices?${k.listQuery("devices", PAGE_ROWS)}`),
    ]);
    const base = gamePath(g, "push");
    return k.page(
      "Push",
      <>
        <h1>Push</h1>
        <p class="sub">
          Campaigns are registered through the push API; their sendings and deliveries show here.
        </p>
        <h2>Campaigns</h2>
        <PagedTable
          label="Push campaigns"
          page={campaigns}
          base={base}
          query={k.query}
          param="cursor"
          columns={[
            ["Campaign", (x) => <a href={`${base}/${x.id}`}>#{x.id} {x.description ?? ""}</a>],
            ["Type", (x) => x.type],
            ["Status", (x) => <Badge value={x.statusName} />],
            ["Audience", (x) => x.countries.join(", ")],
            ["Next sending", (x) => whenUnix(x.nextSendAt)],
            ["Slices sent / pending", (x) => `${x.slices.sent} / ${x.slices.pending}`],
            ["Delivered", (x) => x.delivered],
          ]}
          empty={
            <Empty
              title="No campaigns yet"
              next="Register one with POST /push/campaigns using an API key with the push scope."
            />
          }
        />
        <h2>Targeting records</h2>
        <PagedTable
          label="Targeting records"
          page={targetings}
          base={base}
          query={k.query}
          param="targetings"
          columns={[
            ["Id", (x) => x.id],
            ["Description", (x) => x.description],
            ["Company", (x) => `${x.company} #${x.companyIndex}`],
            ["Targets", (x) => x.targets],
            ["State", (x) => <Badge value={x.available ? "available" : "empty"} />],
            ["Created", (x) => when(x.createdAt)],
          ]}
          empty={
            <Empty
              title="No targeting records"
              next="Create one with POST /push/targets, then upload player ids."
            />
          }
        />
        <h2>Devices</h2>
        <PagedTable
          label="Devices"
          page={devices}
          base={base}
          query={k.query}
          param="devices"
          columns={[
            ["App", (x) => x.appid],
            ["Platform", (x) => x.platform],
            ["Token", (x) => <code>{x.tokenPrefix}…</code>],
            ["Player", (x) => x.playerId ?? ""],
            ["Country", (x) => x.country],
            ["Zone", (x) => x.zone],
            ["Language", (x) => x.language ?? ""],
            ["Updated", (x) => when(x.updatedAt)],
          ]}
          empty={
            <Empty
              title="No devices yet"
              next="Game clients register with POST /push/v1/devices."
            />
          }
        />
      </>,
      { gameIndex: g, section: "push" },
    );
  });
  app.get("/console/g/:g/push/:id", async (c) => {
    const k = consoleOf(c, root);
    const g = gameOf(c);
    const id = c.req.param("id");
    const x = await k.api.get(
      `/admin/v1/games/${g}/push/campaigns/${/^\d{1,15}$/.test(id) ? id : "0"}`,
    );
    const tasks = x.tasks as Task[];
    return k.page(
      `Campaign #${x.id}`,
      <>
        <p>
          <a href={gamePath(g, "push")}>← Push</a>
        </p>
        <h1>Campaign #{x.id} {x.description ?? ""}</h1>
        <p class="sub">
          <Badge value={x.statusName} /> · type {x.type} · audience {x.countries.join(", ")} · apps
          {" "}
          {x.appids.join(", ")} · {x.delivered} delivered
        </p>
        <h2>Sendings per time zone</h2>
        <Timeline tasks={tasks} />
        <Table
          label="Tasks"
          rows={tasks}
          columns={[
            ["Sends (UTC)", (t) => whenUnix(t.sendAt)],
            ["Local", (t) => `${t.date ?? ""} ${t.time ?? ""} ${offsetText(t.gmtOffset)}`],
            ["Zones", (t) => (t.zones ?? []).join(", ") || "every audience zone"],
            ["Slices", (t: Task) => t.slices.map((s) => s.state).join(", ")],
            ["Delivered", (t: Task) => t.slices.reduce((n, s) => n + s.delivered, 0)],
          ]}
          empty={
            <Empty title="No tasks" next="A cancelled or finished campaign has no sendings left." />
          }
        />
      </>,
      { gameIndex: g, section: "push" },
    );
  });
}
