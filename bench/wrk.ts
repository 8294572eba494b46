/** One wrk run (2 threads, 50 connections) and what it printed: req/s, p50, p99, non-2xx. */

/** A URL to load, with headers, or paths taken at random (one per request, a wrk Lua script). */
export interface Target {
  name: string;
  url: string;
  headers?: Record<string, string>;
  /** Paths taken at random, one per request (wrk Lua script), instead of the URL's path. */
  paths?: string[];
}

export interface Run {
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
}

function ms(text: string): number {
  const m = /([\d.]+)(us|ms|s)/.exec(text);
  if (!m) return NaN;
  const v = Number(m[1]);
  return m[2] === "us" ? v / 1000 : m[2] === "s" ? v * 1000 : v;
}

/** Loads the target for `seconds` with wrk `-t2 -c50 --latency`. */
export async function wrk(target: Target, seconds: number): Promise<Run> {
  const args = ["-t2", "-c50", `-d${seconds}s`, "--latency"];
  for (const [k, v] of Object.entries(target.headers ?? {})) args.push("-H", `${k}: ${v}`);
  if (target.paths) {
    const script = await Deno.makeTempFile({ suffix: ".lua" });
    await Deno.writeTextFile(
      script,
      `local paths = {${target.paths.map((p) => JSON.stringify(p)).join(",")}}
request = function() return wrk.format(nil, paths[math.random(#paths)]) end
`,
    );
    args.push("-s", script);
  }
  const out = await new Deno.Command("wrk", { args: [...args, target.url] }).output();
  const text = new TextDecoder().decode(out.stdout);
  return {
    rps: Number(/Requests\/sec:\s+([\d.]+)/.exec(text)?.[1] ?? NaN),
    p50: ms(/\s50%\s+(\S+)/.exec(text)?.[1] ?? ""),
    p99: ms(/\s99%\s+(\S+)/.exec(text)?.[1] ?? ""),
    non2xx: Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(text)?.[1] ?? 0),
  };
}
