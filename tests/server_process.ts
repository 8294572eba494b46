/**
 * A platform server in a child process, as it runs in production (`server.ts`): it binds port 0
 * and the port is read back from its `listening` log line, so no port is ever guessed. Its
 * output is drained all the time (a full pipe would stall it) and the last lines of stdout and
 * stderr are kept for failure messages.
 */

const ROOT = new URL("..", import.meta.url).pathname;
const TAIL_LINES = 40;

/** A running server process. */
export interface ServerProcess {
  /** `http://127.0.0.1:<port>`. */
  url: string;
  port: number;
  pid: number;
  /** Resolves with the exit code when the process ends. */
  exited: Promise<number>;
  /** The last lines the process wrote (stdout and stderr), for failure messages. */
  tail(): string;
  /** Sends a signal and waits for the process to end. */
  kill(signal?: Deno.Signal): Promise<number>;
}

function keepTail(
  stream: ReadableStream<Uint8Array<ArrayBuffer>>,
  lines: string[],
  onLine?: (l: string) => void,
) {
  return (async () => {
    let carry = "";
    for await (const text of stream.pipeThrough(new TextDecoderStream())) {
      const parts = (carry + text).split("\n");
      carry = parts.pop() ?? "";
      for (const line of parts) {
        onLine?.(line);
        lines.push(line);
        if (lines.length > TAIL_LINES) lines.shift();
      }
    }
    if (carry) lines.push(carry);
  })().catch(() => {});
}

/**
 * Starts `entry` (default server.ts) with `env` (PORT is set to 0 and HOST to 127.0.0.1; the log
 * level must let the `listening` line through) and waits until it listens. `clearEnv` starts it
 * with `env` alone instead of on top of this process's environment; `onLine` sees every line of
 * stdout and stderr.
 */
export async function startServerProcess(
  env: Record<string, string>,
  options: {
    entry?: string;
    timeoutMs?: number;
    name?: string;
    clearEnv?: boolean;
    onLine?: (line: string) => void;
  } = {},
): Promise<ServerProcess> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", options.entry ?? "server.ts"],
    cwd: ROOT,
    env: { RUST_BACKTRACE: "0", NO_COLOR: "1", ...env, PORT: "0", HOST: "127.0.0.1" },
    clearEnv: options.clearEnv,
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const lines: string[] = [];
  let resolvePort: (port: number) => void;
  const listening = new Promise<number>((resolve) => resolvePort = resolve);
  const drained = Promise.all([
    keepTail(child.stdout, lines, (line) => {
      options.onLine?.(line);
      const url = /"msg":"listening".*"url":"http:\/\/[^:]+:(\d+)"/.exec(line)?.[1];
      if (url) resolvePort(Number(url));
    }),
    keepTail(child.stderr, lines, options.onLine),
  ]);
  const exited = child.status.then(async (s) => {
    await drained;
    return s.code;
  });
  const name = options.name ?? options.entry ?? "server.ts";
  const tail = () => lines.join("\n");
  const timeout = options.timeoutMs ?? 90_000;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const port = await Promise.race([
    listening,
    exited.then((code) => {
      throw new Error(`${name} exited with ${code} before listening:\n${tail()}`);
    }),
    new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`${name} did not listen within ${timeout} ms:\n${tail()}`)),
        timeout,
      );
    }),
  ]).catch(async (err) => {
    try {
      child.kill("SIGKILL");
    } catch { /* already gone */ }
    await exited;
    throw err;
  }).finally(() => clearTimeout(timer));
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    pid: child.pid,
    exited,
    tail,
    async kill(signal: Deno.Signal = "SIGKILL") {
      try {
        child.kill(signal);
      } catch { /* already gone */ }
      return await exited;
    },
  };
}
