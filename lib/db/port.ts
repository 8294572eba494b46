/**
 * The SQL port: one parameterised query, or a non-interactive batch run as one transaction.
 * Adapters agree on value types: int4 -> number, int8/numeric -> string, json -> parsed,
 * timestamptz -> Date, NULL -> null. Objects passed as parameters are sent as JSON text.
 */

/** One row as returned by the driver. */
export type Row = Record<string, unknown>;

/** One statement of a batch. */
export interface Statement {
  text: string;
  params?: unknown[];
}

/** The database as the application sees it. */
export interface Sql {
  /** Runs one statement and returns its rows. */
  query<T = Row>(text: string, params?: unknown[]): Promise<T[]>;
  /** Runs the statements in order inside one transaction; all or nothing. */
  transaction(statements: Statement[]): Promise<Row[][]>;
  /** Releases the connection or engine. */
  close(): Promise<void>;
  /** Adapter name, for logs and health output. */
  readonly kind: "neon" | "pglite" | "tcp";
}

/** SQLSTATEs outside class 08 that mean "the database cannot serve now; try again later". */
const CANNOT_SERVE_NOW = new Set(["57P01", "57P02", "57P03", "53300", "40001", "40P01"]);

/** SQLSTATEs after which the whole statement or batch was rolled back and may run again. */
const RETRYABLE_CONFLICTS = new Set(["40001", "40P01"]);

/** A database failure: `code` is the SQLSTATE when the server gave one. */
export class DbError extends Error {
  override name = "DbError";
  constructor(message: string, readonly code: string | undefined, options?: ErrorOptions) {
    super(message, options);
  }
  /**
   * True when the database cannot serve now, as opposed to a refused statement: unreachable (no
   * SQLSTATE), connection failures (08xxx), starting up or shutting down (57P01, 57P02, 57P03),
   * too many connections (53300), or a serialization failure or deadlock that outlived the
   * adapter's retries (40001, 40P01). Each is answered 503 with Retry-After.
   */
  get unavailable(): boolean {
    return this.code === undefined || this.code.startsWith("08") || CANNOT_SERVE_NOW.has(this.code);
  }
  /** True for a unique-constraint violation. */
  get uniqueViolation(): boolean {
    return this.code === "23505";
  }
  /** True when a text or JSON value holds a character PostgreSQL cannot store (NUL, U+0000). */
  get unstorableText(): boolean {
    return this.code === "22021" || this.code === "22P05";
  }
}

/** Serialises one parameter the same way for every adapter. */
export function toParam(value: unknown): unknown {
  if (value === undefined) return null;
  if (typeof value === "bigint") return value.toString();
  if (value instanceof Date) return value.toISOString();
  if (value instanceof Uint8Array) return value;
  if (typeof value === "object" && value !== null) return toJsonText(value);
  return value;
}

/**
 * JSON text PostgreSQL accepts. JSON.stringify writes a lone UTF-16 surrogate as a `\udXXX`
 * escape, which jsonb refuses; it becomes U+FFFD, as it does in a text parameter.
 */
export function toJsonText(value: unknown): string {
  return JSON.stringify(value).replace(
    /(\\+)u(d[89a-f][0-9a-f]{2})/gi,
    (escape, slashes: string) => slashes.length % 2 === 1 ? `${slashes.slice(1)}\ufffd` : escape,
  );
}

/**
 * A SQLSTATE: a two-character class (digits, or F0, HV, P0, XX) and three more. Socket error
 * codes of the same length ("EPIPE" when the server has closed the connection) are not.
 */
const SQLSTATE = /^([0-9]{2}|F0|HV|P0|XX)[0-9A-Z]{3}$/;

/** Wraps whatever a driver threw into a DbError, keeping the SQLSTATE. */
export function toDbError(err: unknown): DbError {
  if (err instanceof DbError) return err;
  const e = err as { message?: string; code?: unknown; sourceError?: unknown };
  const code = typeof e?.code === "string" && SQLSTATE.test(e.code) ? e.code : undefined;
  return new DbError(e?.message ?? String(err), code, { cause: err });
}

/**
 * Runs a statement or batch again after a serialization failure or a deadlock (the server rolled
 * it back whole, so nothing of it was applied): up to `attempts` runs with a short random pause.
 * What still fails is thrown as it is (DbError.unavailable: 503 with Retry-After).
 */
export async function retryConflicts<T>(run: () => Promise<T>, attempts = 3): Promise<T> {
  for (let attempt = 1;; attempt++) {
    try {
      return await run();
    } catch (err) {
      const code = err instanceof DbError ? err.code : undefined;
      if (attempt >= attempts || !code || !RETRYABLE_CONFLICTS.has(code)) throw err;
      await new Promise((r) => setTimeout(r, 5 + Math.random() * 20 * attempt));
    }
  }
}
