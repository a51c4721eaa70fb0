/** A self-contained HTML reference of the OpenAPI document: no script, no font, nothing from the internet. */
export function renderDocs(doc: unknown): string {
  const esc = (s: unknown) => String(s ?? '').replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
  const d = doc as {
    info?: { title?: string; description?: string };
    paths?: Record<string, Record<string, Operation>>;
    components?: { schemas?: Record<string, unknown> };
  };
  type Operation = {
    summary?: string;
    'x-min-role'?: string;
    parameters?: { name: string; in: string; required?: boolean }[];
    requestBody?: { content?: Record<string, { schema?: unknown }> };
    responses?: Record<string, { description?: string }>;
  };
  const ops: string[] = [];
  for (const [path, methods] of Object.entries(d.paths ?? {})) {
    for (const [method, op] of Object.entries(methods)) {
      const params = (op.parameters ?? []).map((p) => `${esc(p.name)} (${esc(p.in)}${p.required ? ', required' : ''})`);
      const bodySchema = op.requestBody?.content?.['application/json']?.schema;
      const ok = Object.entries(op.responses ?? {})
        .filter(([status]) => status.startsWith('2'))
        .map(([status, r]) => `${esc(status)} ${esc(r.description)}`);
      ops.push(`<section id="${esc(method)}-${esc(path)}">
<h3><span class="m m-${esc(method)}">${esc(method.toUpperCase())}</span> <code>${esc(path)}</code></h3>
<p>${esc(op.summary)}</p><p class="role">Least access: <strong>${esc(op['x-min-role'] ?? 'anonymous')}</strong></p>
${params.length ? `<p>Parameters: ${params.join(', ')}</p>` : ''}
${bodySchema ? `<details><summary>Request body</summary><pre>${esc(JSON.stringify(bodySchema, null, 2))}</pre></details>` : ''}
<p>Success: ${ok.join('; ')}</p></section>`);
    }
  }
  const schemas = Object.entries(d.components?.schemas ?? {})
    .map(
      ([name, s]) =>
        `<details id="schema-${esc(name)}"><summary>${esc(name)}</summary><pre>${esc(JSON.stringify(s, null, 2))}</pre></details>`,
    )
    .join('\n');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${esc(d.info?.title)} reference</title>
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:960px;margin:2rem auto;padding:0 1rem;color:#1b1f24;background:#fff}
@media (prefers-color-scheme:dark){body{color:#e6e6e6;background:#111418}pre{background:#1c2128!important}}
section{border-top:1px solid #8884;padding:.5rem 0}.m{font:600 12px monospace;padding:2px 6px;border-radius:4px;background:#8883}
.m-get{background:#2da44e33}.m-post{background:#0969da33}.m-patch{background:#bf870033}.m-delete{background:#cf222e33}
pre{background:#f6f8fa;padding:.75rem;overflow:auto;border-radius:6px}.role{margin:0;font-size:13px}</style></head>
<body><h1>${esc(d.info?.title)}</h1><p>${esc(d.info?.description)}</p>
<p>Machine-readable document: <a href="openapi.json">openapi.json</a> (OpenAPI 3.1). Errors always answer <code>{ "error": { "code", "message", "fields"? } }</code>.</p>
<h2>Operations</h2>${ops.join('\n')}<h2>Schemas</h2>${schemas}</body></html>`;
}
