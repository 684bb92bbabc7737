/**
 * The interactive playground served at the GraphQL endpoint (GET, `Accept: text/html`)
 * outside production: one self-contained page — no CDN, no external file — with a query
 * editor, variables, request headers (e.g. `Authorization: Bearer <token>`), the answer,
 * and a schema explorer built from introspection. Run with the button or Ctrl/⌘+Enter.
 * Scripts and styles carry a per-response nonce under a strict Content-Security-Policy.
 */
import { randomBytes } from 'node:crypto';

export interface PlaygroundPage {
  readonly html: string;
  readonly contentSecurityPolicy: string;
}

const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** JSON for an inline script: `</script>` and line separators cannot break out of it. */
const scriptJson = (value: unknown): string => JSON.stringify(value).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');

export function playgroundPage(options: { endpoint: string; defaultQuery: string; title?: string }): PlaygroundPage {
  const nonce = randomBytes(16).toString('base64');
  const title = options.title ?? 'GraphQL playground';
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style nonce="${nonce}">
  * { box-sizing: border-box; }
  body { margin: 0; font: 14px/1.4 system-ui, sans-serif; color: #1f2328; background: #f6f8fa; height: 100vh; display: flex; flex-direction: column; }
  header { display: flex; gap: 12px; align-items: center; padding: 8px 12px; background: #24292f; color: #fff; }
  header h1 { font-size: 15px; margin: 0; font-weight: 600; }
  header code { color: #b6e3ff; }
  header .spacer { flex: 1; }
  button { font: inherit; padding: 5px 14px; border-radius: 6px; border: 1px solid #1f883d; background: #1f883d; color: #fff; cursor: pointer; }
  button.secondary { background: transparent; border-color: #8c959f; color: inherit; }
  main { flex: 1; display: grid; grid-template-columns: 1fr 1fr 320px; min-height: 0; }
  section { display: flex; flex-direction: column; min-height: 0; border-right: 1px solid #d0d7de; }
  label { font-size: 12px; font-weight: 600; text-transform: uppercase; color: #57606a; padding: 6px 10px 2px; }
  textarea, pre { font: 13px/1.45 ui-monospace, SFMono-Regular, Menlo, monospace; margin: 0; border: 0; padding: 8px 10px; background: #fff; color: inherit; }
  textarea { resize: none; outline: none; tab-size: 2; }
  #query { flex: 3; }
  #variables, #headers { flex: 1; border-top: 1px solid #d0d7de; }
  #result { flex: 1; overflow: auto; white-space: pre-wrap; word-break: break-word; }
  #status { font-size: 12px; color: #57606a; padding: 2px 10px 6px; }
  #docs { overflow: auto; padding: 6px 10px; background: #fff; flex: 1; }
  #docs h2 { font-size: 13px; margin: 10px 0 4px; }
  #docs ul { list-style: none; padding: 0; margin: 0; }
  #docs li { padding: 2px 0; font-family: ui-monospace, monospace; font-size: 12px; }
  #docs a { color: #0969da; cursor: pointer; text-decoration: none; }
  #docs .args { color: #6e7781; }
  .error { color: #cf222e; }
</style>
</head>
<body>
<header>
  <h1>${escapeHtml(title)}</h1>
  <code>${escapeHtml(options.endpoint)}</code>
  <span class="spacer"></span>
  <button type="button" class="secondary" id="prettify">Prettify</button>
  <button type="button" id="run" title="Ctrl+Enter">Run ▶</button>
</header>
<main>
  <section>
    <label for="query">Query</label>
    <textarea id="query" spellcheck="false" aria-label="Query"></textarea>
    <label for="variables">Variables (JSON)</label>
    <textarea id="variables" spellcheck="false" aria-label="Variables"></textarea>
    <label for="headers">Headers (JSON)</label>
    <textarea id="headers" spellcheck="false" aria-label="Headers"></textarea>
  </section>
  <section>
    <label for="result">Result</label>
    <div id="status"></div>
    <pre id="result" aria-live="polite"></pre>
  </section>
  <section>
    <label>Schema</label>
    <div id="docs">Loading…</div>
  </section>
</main>
<script nonce="${nonce}">
(() => {
  const endpoint = ${scriptJson(options.endpoint)};
  const defaultQuery = ${scriptJson(options.defaultQuery)};
  const $ = (id) => document.getElementById(id);
  const store = (key, fallback) => { try { return localStorage.getItem('contentgen-playground:' + key) ?? fallback; } catch { return fallback; } };
  const save = (key, value) => { try { localStorage.setItem('contentgen-playground:' + key, value); } catch {} };
  $('query').value = store('query', defaultQuery);
  $('variables').value = store('variables', '{}');
  $('headers').value = store('headers', '{\\n  "Authorization": ""\\n}');
  for (const id of ['query', 'variables', 'headers']) $(id).addEventListener('input', () => save(id, $(id).value));

  const parseJson = (id) => {
    const text = $(id).value.trim();
    if (!text) return {};
    try { return JSON.parse(text); } catch (err) { throw new Error(id + ' is not valid JSON: ' + err.message); }
  };
  const headersOf = () => {
    const headers = { 'content-type': 'application/json', accept: 'application/json' };
    for (const [key, value] of Object.entries(parseJson('headers'))) if (value) headers[key] = String(value);
    return headers;
  };
  const post = async (body) => {
    const res = await fetch(endpoint, { method: 'POST', headers: headersOf(), body: JSON.stringify(body) });
    const text = await res.text();
    try { return { status: res.status, json: JSON.parse(text) }; } catch { return { status: res.status, json: text }; }
  };

  const run = async () => {
    $('status').textContent = 'Running…';
    $('status').className = '';
    const started = performance.now();
    try {
      const { status, json } = await post({ query: $('query').value, variables: parseJson('variables') });
      $('result').textContent = typeof json === 'string' ? json : JSON.stringify(json, null, 2);
      $('status').textContent = 'HTTP ' + status + ' · ' + Math.round(performance.now() - started) + ' ms';
    } catch (err) {
      $('status').textContent = err.message;
      $('status').className = 'error';
    }
  };
  $('run').addEventListener('click', run);
  document.addEventListener('keydown', (event) => {
    if ((event.ctrlKey || event.metaKey) && event.key === 'Enter') { event.preventDefault(); run(); }
  });

  // A light reindent: one level per open brace or parenthesis.
  $('prettify').addEventListener('click', () => {
    let depth = 0;
    const lines = $('query').value.split('\\n').map((line) => line.trim()).filter((line, i, all) => line || (all[i - 1] ?? '') !== '');
    $('query').value = lines.map((line) => {
      const closing = /^[}\\)]/.test(line) ? 1 : 0;
      const out = '  '.repeat(Math.max(0, depth - closing)) + line;
      depth += (line.match(/[{(]/g) || []).length - (line.match(/[})]/g) || []).length;
      return out;
    }).join('\\n');
    save('query', $('query').value);
  });

  // Schema explorer from introspection.
  const typeRef = (t) => t.kind === 'NON_NULL' ? typeRef(t.ofType) + '!' : t.kind === 'LIST' ? '[' + typeRef(t.ofType) + ']' : t.name;
  const namedOf = (t) => (t.ofType ? namedOf(t.ofType) : t.name);
  let types = new Map();
  const el = (tag, props = {}, ...children) => { const e = document.createElement(tag); Object.assign(e, props); e.append(...children); return e; };
  const link = (t) => el('a', { textContent: typeRef(t), onclick: () => showType(namedOf(t)) });
  const fieldItem = (f) => {
    const args = (f.args || []).map((a) => a.name + ': ' + typeRef(a.type)).join(', ');
    return el('li', {}, f.name, args ? el('span', { className: 'args', textContent: '(' + args + ')' }) : '', ': ', link(f.type));
  };
  const showType = (name) => {
    const type = types.get(name);
    const docs = $('docs');
    docs.replaceChildren(el('a', { textContent: '← Query & Mutation', onclick: showRoots }), el('h2', { textContent: type.kind.toLowerCase() + ' ' + name }));
    if (type.description) docs.append(el('p', { textContent: type.description }));
    const list = el('ul');
    for (const f of type.fields || type.inputFields || []) list.append(fieldItem(f));
    for (const v of type.enumValues || []) list.append(el('li', { textContent: v.name }));
    for (const t of type.possibleTypes || []) list.append(el('li', {}, link(t)));
    docs.append(list);
  };
  const showRoots = () => {
    const docs = $('docs');
    docs.replaceChildren();
    for (const root of ['Query', 'Mutation']) {
      const type = types.get(root);
      if (!type) continue;
      docs.append(el('h2', { textContent: root }), el('ul', {}, ...type.fields.map(fieldItem)));
    }
  };
  const introspect = async () => {
    try {
      const query = '{ __schema { types { kind name description fields { name args { name type { ...T } } type { ...T } } inputFields { name type { ...T } } enumValues { name } possibleTypes { name kind } } } } fragment T on __Type { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name } } } } }';
      const { json } = await post({ query });
      if (!json || !json.data) throw new Error(json && json.errors ? json.errors[0].message : 'no schema');
      types = new Map(json.data.__schema.types.map((t) => [t.name, t]));
      showRoots();
    } catch (err) {
      $('docs').replaceChildren(el('p', { className: 'error', textContent: 'Schema unavailable: ' + err.message }));
    }
  };
  introspect();
})();
</script>
</body>
</html>
`;
  const contentSecurityPolicy = `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'nonce-${nonce}'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`;
  return { html, contentSecurityPolicy };
}
