/** GET /openapi.json (the OpenAPI 3.1 document) and GET /docs (a self-contained reference page). */
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../env.ts";
import { completeDocument } from "../openapi.ts";

const info = {
  title: "Game Platform API",
  version: "1.0.0",
  description:
    "Blockchain (Polygon, XPLA), chat and text abuse detection, CPA rewards, item delivery, push campaigns and one-time passwords.",
};

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

interface Operation {
  summary?: string;
  description?: string;
  tags?: string[];
  parameters?: { name: string; in: string; required?: boolean; schema?: unknown }[];
  requestBody?: { content?: Record<string, { schema?: unknown }> };
  responses?: Record<
    string,
    { description?: string; content?: Record<string, { schema?: unknown }> }
  >;
}

/** Renders the OpenAPI document as one readable HTML page with no external assets. */
export function renderDocsPage(doc: { paths?: Record<string, Record<string, Operation>> }): string {
  const byTag = new Map<string, string[]>();
  for (const [path, ops] of Object.entries(doc.paths ?? {})) {
    for (const [method, op] of Object.entries(ops)) {
      const tag = op.tags?.[0] ?? "other";
      const params = (op.parameters ?? []).map((p) =>
        `<li><code>${escapeHtml(p.name)}</code> (${p.in}${p.required ? ", required" : ""})</li>`
      ).join("");
      const body = op.requestBody?.content?.["application/json"]?.schema;
      const responses = Object.entries(op.responses ?? {}).map(([status, r]) =>
        `<li><b>${status}</b> ${escapeHtml(r.description ?? "")}</li>`
      ).join("");
      const html = `<section><h3><span class="m ${method}">${method.toUpperCase()}</span> <code>${
        escapeHtml(path)
      }</code></h3><p>${escapeHtml(op.summary ?? "")}</p>${
        params ? `<h4>Parameters</h4><ul>${params}</ul>` : ""
      }${
        body
          ? `<details><summary>Request body schema</summary><pre>${
            escapeHtml(JSON.stringify(body, null, 2))
          }</pre></details>`
          : ""
      }<h4>Responses</h4><ul>${responses}</ul></section>`;
      byTag.set(tag, [...(byTag.get(tag) ?? []), html]);
    }
  }
  const sections = [...byTag].map(([tag, items]) =>
    `<h2 id="${tag}">${escapeHtml(tag)}</h2>${items.join("")}`
  )
    .join("");
  const toc = [...byTag.keys()].map((t) => `<a href="#${t}">${escapeHtml(t)}</a>`).join(" · ");
  return `<!doctype html><html><head><meta charset="utf-8"><title>${info.title}</title>
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:960px;margin:2em auto;padding:0 1em;color:#222}
section{border-top:1px solid #ddd;padding:.5em 0}h3{margin:.3em 0;font-size:1em}
.m{display:inline-block;min-width:4.5em;padding:0 .4em;border-radius:3px;color:#fff;font-size:.85em;text-align:center}
.get{background:#2f7d32}.post{background:#1565c0}.put{background:#ef6c00}.patch{background:#6a1b9a}.delete{background:#c62828}
pre{background:#f6f6f6;padding:.6em;overflow:auto;font-size:12px}</style></head><body>
<h1>${info.title}</h1><p>${
    escapeHtml(info.description)
  }</p><p>Machine-readable: <a href="/openapi.json">/openapi.json</a></p>
<p>${toc}</p>${sections}</body></html>`;
}

/** The complete OpenAPI 3.1 document of the app (see routes/openapi.ts). */
export function openApiDocument(app: OpenAPIHono<AppEnv>) {
  return completeDocument(app.getOpenAPI31Document({ openapi: "3.1.0", info }));
}

/** Registers /openapi.json and /docs on the root app. */
export function registerDocs(app: OpenAPIHono<AppEnv>) {
  let doc: ReturnType<typeof openApiDocument> | undefined;
  const document = () => doc ??= openApiDocument(app);
  app.get("/openapi.json", (c) => c.json(document()));
  let page: string | undefined;
  app.get("/docs", (c) => {
    page ??= renderDocsPage(document() as Parameters<typeof renderDocsPage>[0]);
    return c.html(page);
  });
}
