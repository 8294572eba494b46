/** The ordered list of migrations; each file is plain SQL imported as text (Deno and wrangler both bundle it). */
import type { Migration } from "../migration.ts";
import m0001 from "./0001_platform.sql" with { type: "text" };
import m0002 from "./0002_moderation.sql" with { type: "text" };
import m0003 from "./0003_items.sql" with { type: "text" };
import m0004 from "./0004_chain.sql" with { type: "text" };
import m0005 from "./0005_push.sql" with { type: "text" };
import m0006 from "./0006_otp.sql" with { type: "text" };
import m0007 from "./0007_nft_metadata_per_request.sql" with { type: "text" };
import m0008 from "./0008_multisig.sql" with { type: "text" };
import m0009 from "./0009_xpla_multisig.sql" with { type: "text" };
import m0010 from "./0010_push_delivery.sql" with { type: "text" };
import m0011 from "./0011_list_indexes.sql" with { type: "text" };
import m0012 from "./0012_console.sql" with { type: "text" };
import m0013 from "./0013_builtin_lexicon.sql" with { type: "text" };
import m0014 from "./0014_webhook_secrets.sql" with { type: "text" };
import m0015 from "./0015_chain_attempts.sql" with { type: "text" };
import m0016 from "./0016_chain_lifecycle.sql" with { type: "text" };
import m0019 from "./0019_push_progress.sql" with { type: "text" };
import m0021 from "./0021_detection_severity.sql" with { type: "text" };
import m0022 from "./0022_api_key_names.sql" with { type: "text" };
import m0023 from "./0023_tx_counts.sql" with { type: "text" };
import m0024 from "./0024_chat_batch_receipts.sql" with { type: "text" };

/** Every migration, oldest first. Add new files at the end; never edit an applied one. */
export const migrations: Migration[] = [
  { name: "0001_platform", sql: m0001 },
  { name: "0002_moderation", sql: m0002 },
  { name: "0003_items", sql: m0003 },
  { name: "0004_chain", sql: m0004 },
  { name: "0005_push", sql: m0005 },
  { name: "0006_otp", sql: m0006 },
  { name: "0007_nft_metadata_per_request", sql: m0007 },
  { name: "0008_multisig", sql: m0008 },
  { name: "0009_xpla_multisig", sql: m0009 },
  { name: "0010_push_delivery", sql: m0010 },
  { name: "0011_list_indexes", sql: m0011 },
  { name: "0012_console", sql: m0012 },
  { name: "0013_builtin_lexicon", sql: m0013 },
  { name: "0014_webhook_secrets", sql: m0014 },
  { name: "0015_chain_attempts", sql: m0015 },
  { name: "0016_chain_lifecycle", sql: m0016 },
  { name: "0019_push_progress", sql: m0019 },
  { name: "0021_detection_severity", sql: m0021 },
  { name: "0022_api_key_names", sql: m0022 },
  { name: "0023_tx_counts", sql: m0023 },
  { name: "0024_chat_batch_receipts", sql: m0024 },
];
