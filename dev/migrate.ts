/** `deno task migrate`: applies pending migrations to DATABASE_URL, or to the embedded database. */
import { loadConfig } from "../lib/config.ts";
import { openNeon } from "../lib/db/neon.ts";
import { migrate } from "../lib/db/migrate.ts";
import { embeddedDatabase } from "../lib/embedded.ts";

const config = loadConfig(Deno.env.toObject());
const db = config.DATABASE_URL
  ? openNeon(config.DATABASE_URL, { fetchEndpoint: config.NEON_FETCH_ENDPOINT })
  : await embeddedDatabase(config);
try {
  const applied = await migrate(db);
  console.log(applied.length ? `applied: ${applied.join(", ")}` : "nothing to apply");
} finally {
  await db.close();
}
