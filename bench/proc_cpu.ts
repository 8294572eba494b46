/** CPU time of the processes a load script measures, from Linux's /proc (and `ss` for ports). */

/** The process listening on a loopback TCP port. */
export function pidOf(port: string): number {
  const out = new Deno.Command("ss", { args: ["-ltnpH", `sport = :${port}`] }).outputSync();
  const m = /pid=(\d+)/.exec(new TextDecoder().decode(out.stdout));
  if (!m) throw new Error(`nothing listens on port ${port}`);
  return Number(m[1]);
}

/** A process's CPU time (user and system, every thread) in clock ticks of 10 ms. */
export function cpuTicks(pid: number): number {
  const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return Number(fields[11]) + Number(fields[12]);
}

/** The machine's CPU ticks over every core: all of them, and the idle ones (idle and I/O wait). */
export function machineTicks(): { total: number; idle: number } {
  const n = Deno.readTextFileSync("/proc/stat").split("\n")[0].trim().split(/\s+/).slice(1)
    .map(Number);
  return { total: n.reduce((a, b) => a + b, 0), idle: n[3] + n[4] };
}
