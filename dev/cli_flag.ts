/** Command-line flags of the dev tools: `--name value` or `--name=value`. */

/** The value of a flag, or undefined when it is absent. */
export function cliFlag(name: string, args: string[] = Deno.args): string | undefined {
  for (let i = 0; i < args.length; i++) {
    if (args[i] === `--${name}`) return args[i + 1];
    if (args[i].startsWith(`--${name}=`)) return args[i].slice(name.length + 3);
  }
  return undefined;
}
