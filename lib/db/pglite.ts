/** Embedded Postgres (PGlite): the zero-configuration default for laptops and tests. */
import { PGlite, types } from "@electric-sql/pglite";
import { type Row, type Sql, type Statement, toDbError, toParam } from "./port.ts";

const asText = (v: string) => v;

/** Opens PGlite in memory (no dataDir) or persisted under dataDir. */
export async function openPglite(dataDir?: string): Promise<Sql> {
  const db = new PGlite(dataDir);
  // int8 and numeric as strings, as Neon returns them, so both adapters agree. Passed per query:
  // PGlite 0.5 ignores parsers given to the constructor.
  const options = { parsers: { [types.INT8]: asText, [types.NUMERIC]: asText } };
  await db.waitReady;
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
          const r = await db.query<T>(text, params.map(toParam), options);
          return r.rows;
        } catch (err) {
          throw toDbError(err);
        }
      });
    },
    transaction(statements: Statement[]) {
      return serial(async () => {
        try {
          return await db.transaction(async (tx) => {
            const out: Row[][] = [];
            for (const s of statements) {
              out.push((await tx.query<Row>(s.text, (s.params ?? []).map(toParam), options)).rows);
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
