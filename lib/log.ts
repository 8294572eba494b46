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

// Field names recur (a request line has the same dozen on every request): the secret test is
// remembered per name, bounded so that odd names cannot grow the table without limit.
const secretNames = new Map<string, boolean>();
function isSecretName(key: string): boolean {
  let secret = secretNames.get(key);
  if (secret === undefined) {
    secret = SECRET_KEY.test(key);
    if (secretNames.size < 1_000) secretNames.set(key, secret);
  }
  return secret;
}

/** Replaces values of secret-looking fields; errors become name, message and cause chain. */
export function redact(value: unknown, depth = 0): unknown {
  if (value === null || typeof value !== "object") return value;
  if (depth > 5) return "[deep]";
  if (value instanceof Error) {
    return {
      name: value.name,
      message: value.message,
      ...(value.cause ? { cause: redact(value.cause, depth + 1) } : {}),
    };
  }
  if (Array.isArray(value)) return value.map((v) => redact(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const k in value) {
    if (!Object.hasOwn(value, k)) continue;
    const v = (value as Record<string, unknown>)[k];
    out[k] = isSecretName(k) ? "[redacted]" : redact(v, depth + 1);
  }
  return out;
}

// The line's time, formatted once per millisecond (a busy server writes many lines per ms).
let stampMs = NaN;
let stamp = "";
function isoNow(): string {
  const now = Date.now();
  if (now !== stampMs) {
    stampMs = now;
    stamp = new Date(now).toISOString();
  }
  return stamp;
}

/** Creates a logger writing one JSON object per line to the console. */
export function createLogger(
  level: Level | "silent" = "info",
  sink: (line: string) => void = (l) => console.log(l),
): Logger {
  const min = order[level];
  const write = (lvl: Level, msg: string, fields?: Record<string, unknown>) => {
    if (order[lvl] < min) return;
    const entry: Record<string, unknown> = { t: isoNow(), level: lvl, msg };
    if (fields) {
      for (const k in fields) {
        if (!Object.hasOwn(fields, k)) continue;
        const v = fields[k];
        // Absent fields are left out of the line (JSON.stringify would drop them anyway).
        if (v === undefined) continue;
        entry[k] = isSecretName(k) ? "[redacted]" : redact(v, 1);
      }
    }
    sink(JSON.stringify(entry));
  };
  return {
    debug: (m, f) => write("debug", m, f),
    info: (m, f) => write("info", m, f),
    warn: (m, f) => write("warn", m, f),
    error: (m, f) => write("error", m, f),
  };
}

/**
 * A sink that gathers lines and writes them together once per turn of the event loop (or when
 * 64 KB are waiting), so a busy server makes one write per batch instead of one per line.
 * `flush` writes what is waiting at once (call it before exiting). Lines written just before a
 * hard kill of the process can be lost; a normal shutdown flushes.
 */
export function batchedLines(write: (chunk: Uint8Array) => void): {
  sink: (line: string) => void;
  flush: () => void;
} {
  const encoder = new TextEncoder();
  let waiting: string[] = [];
  let size = 0;
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    if (waiting.length === 0) return;
    const text = waiting.join("\n") + "\n";
    waiting = [];
    size = 0;
    try {
      write(encoder.encode(text));
    } catch {
      // The log stream is gone (closed pipe): logging must never take a request down.
    }
  };
  const sink = (line: string) => {
    waiting.push(line);
    size += line.length;
    if (size >= 65_536) flush();
    else if (!scheduled) {
      scheduled = true;
      setTimeout(flush, 0);
    }
  };
  return { sink, flush };
}

/** Writes all of a chunk with a synchronous writer that may write only part of it per call. */
export function writeAll(writeSync: (chunk: Uint8Array) => number, chunk: Uint8Array): void {
  let done = 0;
  while (done < chunk.length) done += writeSync(chunk.subarray(done));
}
