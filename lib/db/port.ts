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
  readonly kind: "neon" | "pglite";
}

/** A database failure: `code` is the SQLSTATE when the server gave one. */
export class DbError extends Error {
  override name = "DbError";
  constructor(message: string, readonly code: string | undefined, options?: ErrorOptions) {
    super(message, options);
  }
  /** True when the database could not be reached at all (as opposed to a refused statement). */
  get unavailable(): boolean {
    return this.code === undefined || this.code.startsWith("08") || this.code === "57P01";
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

/** Wraps whatever a driver threw into a DbError, keeping the SQLSTATE. */
export function toDbError(err: unknown): DbError {
  if (err instanceof DbError) return err;
  const e = err as { message?: string; code?: unknown; sourceError?: unknown };
  const code = typeof e?.code === "string" && /^[0-9A-Z]{5}$/.test(e.code) ? e.code : undefined;
  return new DbError(e?.message ?? String(err), code, { cause: err });
}
