/** Embedded Postgres (PGlite): the zero-configuration default for laptops and tests. */
import { PGlite, types } from "@electric-sql/pglite";
import { type Row, type Sql, type Statement, toDbError, toParam } from "./port.ts";

const asText = (v: string) => v;

/** Opens PGlite in memory (no dataDir) or persisted under dataDir. */
export async function openPglite(dataDir?: string): Promise<Sql> {
  const db = new PGlite(dataDir);
  await db.waitReady;
  // int8 and numeric as strings, as Neon returns them, so both adapters agree. PGlite 0.5 ignores
  // parsers given to the constructor, and parsers given per query cost a copy of its whole parser
  // table (hundreds of entries) on every query (~0.1 ms), so they are set on the instance's table;
  // reads check them first because PGlite rebuilds that table when it refreshes array types.
  const table = (db as unknown as { parsers: Record<number, (v: string) => unknown> }).parsers;
  const keepText = () => {
    const parsers = (db as unknown as { parsers: typeof table }).parsers;
    if (parsers[types.INT8] !== asText) parsers[types.INT8] = asText;
    if (parsers[types.NUMERIC] !== asText) parsers[types.NUMERIC] = asText;
  };
  if (!table) throw new Error("PGlite parser table not found");
  keepText();
  // PGlite runs one statement at a time; a queue keeps batches from interleaving.
  let tail: Promise<unknown> = Promise.resolve();
  function serial<T>(fn: () => Promise<T>): Promise<T> {
    const run = tail.then(fn, fn);
    tail = run.catch(() => undefined);
    return run;
  }
  return {
    kind: "pglite",
    query<T = Row>(text: string, params: unknown[] = []) {
      return serial(async () => {
        try {
          keepText();
          const r = await db.query<T>(text, params.map(toParam));
          return r.rows;
        } catch (err) {
          throw toDbError(err);
        }
      });
    },
    transaction(statements: Statement[]) {
      return serial(async () => {
        try {
          keepText();
          return await db.transaction(async (tx) => {
            const out: Row[][] = [];
            for (const s of statements) {
              out.push((await tx.query<Row>(s.text, (s.params ?? []).map(toParam))).rows);
            }
            return out;
          });
        } catch (err) {
          throw toDbError(err);
        }
      });
    },
    async close() {
      if (!db.closed) await db.close();
    },
  };
}
