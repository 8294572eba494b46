/** Structured JSON-lines logging with secret redaction. */

/** Log levels in increasing severity. */
export type Level = "debug" | "info" | "warn" | "error";
const order = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 } as const;

/** Logger handed to every component. */
export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
}

const SECRET_KEY = /secret|token|password|authorization|apikey|api_key|private|otp|jwk|master/i;

/** Replaces values of secret-looking fields; errors become name, message and cause chain. */
export function redact(value: unknown, depth = 0): unknown {
  if (depth > 5) return "[deep]";
  if (value instanceof Error) {
    return {
      name: value.name,
      message: value.message,
      ...(value.cause ? { cause: redact(value.cause, depth + 1) } : {}),
    };
  }
  if (Array.isArray(value)) return value.map((v) => redact(v, depth + 1));
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      out[k] = SECRET_KEY.test(k) ? "[redacted]" : redact(v, depth + 1);
    }
    return out;
  }
  return value;
}

/** Creates a logger writing one JSON object per line to the console. */
export function createLogger(
  level: Level | "silent" = "info",
  sink: (line: string) => void = (l) => console.log(l),
): Logger {
  const min = order[level];
  const write = (lvl: Level, msg: string, fields?: Record<string, unknown>) => {
    if (order[lvl] < min) return;
    const entry = {
      t: new Date().toISOString(),
      level: lvl,
      msg,
      ...(redact(fields ?? {}) as object),
    };
    sink(JSON.stringify(entry));
  };
  return {
    debug: (m, f) => write("debug", m, f),
    info: (m, f) => write("info", m, f),
    warn: (m, f) => write("warn", m, f),
    error: (m, f) => write("error", m, f),
  };
}
