/**
 * Prints the OpenAPI document (or writes it to the path given), built from the route definitions
 * without a database: `deno run -A dev/openapi.ts openapi.json`. CI lints what it writes.
 */
import { loadConfig } from "../lib/config.ts";
import type { Services } from "../lib/services.ts";
import { createApp } from "../routes/mod.ts";
import { openApiDocument } from "../routes/system/docs.ts";

// Building the app reads only the configuration; no request is served.
const app = createApp({ config: loadConfig({}) } as Services);
const text = JSON.stringify(openApiDocument(app), null, 2) + "\n";
const [out] = Deno.args;
if (out) {
  const dir = out.includes("/") ? out.slice(0, out.lastIndexOf("/")) : "";
  if (dir) await Deno.mkdir(dir, { recursive: true });
  await Deno.writeTextFile(out, text);
} else console.log(text);
