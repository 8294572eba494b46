/** Applies the numbered SQL migrations in order, once each, recorded in schema_migrations. */
import { DbError, type Sql } from "./port.ts";
import { migrations } from "./migrations/mod.ts";

import type { Migration } from "./migration.ts";

export type { Migration } from "./migration.ts";

const LOCK_KEY = 7_261_001;

/** Splits a migration file into statements; respects quotes, dollar quotes and comments. */
export function splitStatements(sql: string): string[] {
  const out: string[] = [];
  let current = "";
  let i = 0;
  let dollarTag: string | null = null;
  let quote: "'" | '"' | null = null;
  while (i < sql.length) {
    const ch = sql[i];
    if (dollarTag) {
      if (sql.startsWith(dollarTag, i)) {
        current += dollarTag;
        i += dollarTag.length;
        dollarTag = null;
        continue;
      }
    } else if (quote) {
      if (ch === quote) quote = null;
    } else if (ch === "-" && sql[i + 1] === "-") {
      const end = sql.indexOf("\n", i);
      i = end === -1 ? sql.length : end;
      continue;
    } else if (ch === "'" || ch === '"') {
      quote = ch;
    } else if (ch === "$") {
      const m = /^\$[A-Za-z_]*\$/.exec(sql.slice(i));
      if (m) {
        dollarTag = m[0];
        current += m[0];
        i += m[0].length;
        continue;
      }
    } else if (ch === ";") {
      if (current.trim()) out.push(current.trim());
      current = "";
      i++;
      continue;
    }
    current += ch;
    i++;
  }
  if (current.trim()) out.push(current.trim());
  return out;
}

/** Applies every pending migration; safe to run concurrently from several processes. */
export async function migrate(db: Sql, list: Migration[] = migrations): Promise<string[]> {
  await db.query(
    `create table if not exists schema_migrations (
       name text primary key,
       applied_at timestamptz not null default now()
     )`,
  ).catch((err) => {
    // Two processes creating the table at once: the loser sees a duplicate type; harmless.
    if (!(err instanceof DbError && (err.code === "23505" || err.code === "42P07"))) throw err;
  });
  const done = new Set(
    (await db.query<{ name: string }>("select name from schema_migrations")).map((r) => r.name),
  );
  const applied: string[] = [];
  for (const m of list) {
    if (done.has(m.name)) continue;
    try {
      await db.transaction([
        { text: "select pg_advisory_xact_lock($1)", params: [LOCK_KEY] },
        { text: "insert into schema_migrations (name) values ($1)", params: [m.name] },
        ...splitStatements(m.sql).map((text) => ({ text })),
      ]);
      applied.push(m.name);
    } catch (err) {
      // Another process applied it while we waited for the lock.
      if (err instanceof DbError && err.uniqueViolation) continue;
      throw new DbError(`migration ${m.name} failed: ${(err as Error).message}`, undefined, {
        cause: err,
      });
    }
  }
  return applied;
}
