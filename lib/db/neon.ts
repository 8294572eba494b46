/** Postgres over Neon's HTTP protocol: one round trip per call, works on every edge runtime. */
import { neon, neonConfig } from "@neondatabase/serverless";
import { retryConflicts, type Row, type Sql, type Statement, toDbError, toParam } from "./port.ts";

/** Options for the Neon adapter; `fetchEndpoint` points the driver at a non-Neon endpoint. */
export interface NeonOptions {
  fetchEndpoint?: string;
}

/** Opens the Neon HTTP adapter for a connection string. */
export function openNeon(url: string, options: NeonOptions = {}): Sql {
  if (options.fetchEndpoint) neonConfig.fetchEndpoint = options.fetchEndpoint;
  const sql = neon(url);
  return {
    kind: "neon",
    query<T = Row>(text: string, params: unknown[] = []) {
      return retryConflicts(async () => {
        try {
          return (await sql.query(text, params.map(toParam))) as T[];
        } catch (err) {
          throw toDbError(err);
        }
      });
    },
    transaction(statements: Statement[]) {
      return retryConflicts(async () => {
        try {
          return (await sql.transaction((tx) =>
            statements.map((s) => tx.query(s.text, (s.params ?? []).map(toParam)))
          )) as Row[][];
        } catch (err) {
          throw toDbError(err);
        }
      });
    },
    close() {
      return Promise.resolve();
    },
  };
}
