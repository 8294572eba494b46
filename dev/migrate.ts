/**
 * `deno task migrate`: applies pending migrations to DATABASE_URL (with the adapter
 * DATABASE_DRIVER picks), or to the embedded database.
 */
import { loadConfig } from "../lib/config.ts";
import { openDatabase } from "../lib/db/driver.ts";
import { migrate } from "../lib/db/migrate.ts";
import { embeddedDatabase } from "../lib/embedded.ts";

const config = loadConfig(Deno.env.toObject());
const db = config.DATABASE_URL
  ? openDatabase(config.DATABASE_URL, config)
  : await embeddedDatabase(config);
try {
  const applied = await migrate(db);
  console.log(applied.length ? `applied: ${applied.join(", ")}` : "nothing to apply");
} finally {
  await db.close();
}
