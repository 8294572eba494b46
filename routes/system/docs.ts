/**
 * GET /openapi.json (the OpenAPI 3.1 document) and GET /docs: Swagger UI (try-it, schemas,
 * examples) from assets this app serves itself under /docs/assets/, with a plain HTML reference
 * for readers without JavaScript.
 */
import type { OpenAPIHono } from "@hono/zod-openapi";
import swaggerBundle from "swagger-ui-dist/swagger-ui-bundle.js" with { type: "text" };
import swaggerCss from "swagger-ui-dist/swagger-ui.css" with { type: "text" };
import type { Context } from "hono";
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
    page ??= swaggerPage(renderDocsPage(document() as Parameters<typeof renderDocsPage>[0]));
    return c.html(page);
  });
  const asset = (text: string, type: string) => {
    const bytes = new TextEncoder().encode(text);
    const headers = {
      "content-type": `${type}; charset=utf-8`,
      "content-length": String(bytes.byteLength),
      "cache-control": "public, max-age=86400",
    };
    return (c: Context) => c.body(bytes, 200, headers);
  };
  app.get("/docs/assets/swagger-ui-bundle.js", asset(swaggerBundle, "text/javascript"));
  app.get("/docs/assets/swagger-ui.css", asset(swaggerCss, "text/css"));
  app.get("/docs/assets/init.js", asset(initScript, "text/javascript"));
}

// A separate file rather than an inline script, so a strict Content-Security-Policy works.
const initScript = `window.ui = SwaggerUIBundle({
  url: "/openapi.json",
  dom_id: "#swagger-ui",
  deepLinking: true,
  tryItOutEnabled: false,
  persistAuthorization: false,
  displayOperationId: true,
  defaultModelsExpandDepth: 1
});
document.getElementById("plain").hidden = true;
`;

function swaggerPage(plain: string): string {
  // The plain reference's body goes in the page; Swagger UI replaces it when scripts run.
  const body = /<body>([\s\S]*)<\/body>/.exec(plain)?.[1] ?? "";
  return `<!doctype html><html><head><meta charset="utf-8"><title>${info.title}</title>
<link rel="stylesheet" href="/docs/assets/swagger-ui.css"></head><body>
<div id="swagger-ui"></div><div id="plain">${body}</div>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script src="/docs/assets/init.js"></script></body></html>`;
}
