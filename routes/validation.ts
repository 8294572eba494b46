/** Turns zod issues into one readable sentence naming each field, e.g. "mintMsg[3].metadata.image is required". */
import type { z } from "zod";

/** Renders an issue path as a field reference. */
export function fieldPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const p of path) {
    if (typeof p === "number") out += `[${p}]`;
    else out += out ? `.${String(p)}` : String(p);
  }
  return out || "body";
}

/** Renders one issue. */
export function formatIssue(issue: z.core.$ZodIssue): string {
  const field = fieldPath(issue.path);
  if (issue.code === "invalid_type" && /received undefined/.test(issue.message)) {
    return `${field} is required`;
  }
  if (issue.code === "unrecognized_keys") {
    return `${field}: unknown field(s) ${issue.keys.join(", ")}`;
  }
  return `${field}: ${issue.message}`;
}

/** Renders the first few issues as one message. */
export function formatIssues(issues: readonly z.core.$ZodIssue[]): string {
  const shown = issues.slice(0, 5).map(formatIssue);
  const more = issues.length > 5 ? ` (and ${issues.length - 5} more)` : "";
  return shown.join("; ") + more;
}
