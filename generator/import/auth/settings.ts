/**
 * What Strapi keeps as data and contentgen as configuration: the users-permissions settings
 * of strapi_core_store_settings (`plugin_users-permissions_advanced`, `_email`, `_grant`) and
 * the webhooks of strapi_webhooks.
 *
 * They become `src/config.imported.ts`, a module of the server that src/config.ts can import,
 * not an edit of src/config.ts: that file is the user's (a build creates it once and never
 * writes it again), it is TypeScript that may compute its values, and a rewrite made by a tool
 * could lose what the user wrote there. A separate module, rewritten by each import and headed
 * so, keeps Strapi's values reviewable and typed (it compiles with the server, checked against
 * the config types) and takes a three-line edit to adopt, shown in its header and in the report.
 *
 * Webhook headers are copied as environment reads when their name looks like a credential
 * (Authorization, *token*, *secret*, *key*, …), as the build does for config/ secrets; their
 * values go to a separate file for the environment, never into the module.
 */
import { tsLiteral } from '../../emit/ts-literal.js';
import { sourceKey, type ProjectConfig } from '../../load/project-config.js';
import type { UsersPermissionsConfig } from '../../../templates/runtime/config.js';
import { webhookEvents } from '../../../templates/runtime/webhooks/config.js';
import { count, listed, type ImportFile } from './plan.js';
import { flag, id, json, rowsOf, text, type AuthSource } from './source.js';

export const importedConfigPath = 'src/config.imported.ts';
export const webhookSecretsPath = 'strapi-import/webhook-secrets.env';

/** Strapi's first-boot values (plugin-users-permissions server/bootstrap), which need no line in the report. */
const strapiDefaultFrom = 'Administration Panel <no-reply@strapi.io>';
const strapiDefaultTemplates: Readonly<Record<string, { object: string; message: string }>> = {
  reset_password: {
    object: 'Reset password',
    message:
      '<p>We heard that you lost your password. Sorry about that!</p>\n\n<p>But don’t worry! You can use the following link to reset your password:</p>\n' +
      '<p><%= URL %>?code=<%= TOKEN %></p>\n\n<p>Thanks.</p>',
  },
  email_confirmation: {
    object: 'Account confirmation',
    message:
      '<p>Thank you for registering!</p>\n\n<p>You have to confirm your email address. Please click on the link below.</p>\n\n' +
      '<p><%= URL %>?confirmation=<%= CODE %></p>\n\n<p>Thanks.</p>',
  },
};

const secretHeader = /authorization|cookie|token|secret|key|signature|password|passwd|auth|credential/i;

type AdvancedSettings = UsersPermissionsConfig['advanced'];

export interface SettingsPlan {
  readonly files: ImportFile[];
  readonly report: string[];
}

/** `roleType` maps Strapi's role types to the ones imported (they differ only where Strapi's was not valid here). */
export function planSettings(source: AuthSource, config: ProjectConfig | undefined, roleTypes: ReadonlySet<string>, roleType: (strapiType: string) => string): SettingsPlan {
  const report: string[] = [];
  const store = coreStore(source);
  const advanced = advancedSettings(store.get('plugin_users-permissions_advanced'), roleTypes, roleType, report);
  const { email, templates } = emailSettings(store.get('plugin_users-permissions_email'), report);
  reportProviders(store.get('plugin_users-permissions_grant'), report);
  const hooks = webhooks(source, config, report);

  const files: ImportFile[] = [{ path: importedConfigPath, root: 'server', kind: 'config', content: importedConfigModule(advanced, email, templates, hooks) }];
  if (hooks.secrets.length) {
    const lines = hooks.secrets.map(([name, value]) => `${name}=${JSON.stringify(value)}`);
    files.push({ path: webhookSecretsPath, root: 'server', kind: 'secrets', content: `# Webhook header values from Strapi's strapi_webhooks, read by src/config.imported.ts. Set them in the server's environment; do not commit this file.\n${lines.join('\n')}\n` });
  }
  report.push(
    `strapi_core_store_settings, strapi_webhooks: written to ${importedConfigPath}; src/config.ts is yours and was not changed: ` +
      `to use them, import { advanced, email, webhooks } from './config.imported.js' there and set plugins['users-permissions'].advanced = advanced, .email = email, and webhooks = webhooks()`,
  );
  return { files, report };
}

/** Key → parsed value of strapi_core_store_settings (the value column is JSON text). */
function coreStore(source: AuthSource): Map<string, unknown> {
  return new Map(rowsOf(source, 'strapi_core_store_settings').map((row) => [text(row.key) ?? '', json(row.value)]));
}

function record(value: unknown): Record<string, unknown> {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

function advancedSettings(value: unknown, roleTypes: ReadonlySet<string>, roleType: (t: string) => string, report: string[]): AdvancedSettings {
  const stored = record(value);
  if (value === undefined) report.push("strapi_core_store_settings: no plugin_users-permissions_advanced; Strapi's defaults are written");
  const bool = (key: string, fallback: boolean) => flag(stored[key]) ?? fallback;
  // Strapi saves '' from an emptied admin field; it behaves as unset.
  const url = (key: string) => text(stored[key]) || null;
  let defaultRole = roleType(text(stored.default_role) ?? 'authenticated');
  // The two built-in roles exist on every server, imported or not.
  if (!roleTypes.has(defaultRole) && defaultRole !== 'authenticated' && defaultRole !== 'public') {
    report.push(`plugin_users-permissions_advanced: default_role "${defaultRole}" is not a role; new users get "authenticated"`);
    defaultRole = 'authenticated';
  }
  return {
    unique_email: bool('unique_email', true),
    allow_register: bool('allow_register', true),
    email_confirmation: bool('email_confirmation', false),
    email_confirmation_redirection: url('email_confirmation_redirection'),
    email_reset_password: url('email_reset_password'),
    default_role: defaultRole,
  };
}

interface StrapiTemplate {
  readonly from: string | null;
  readonly replyTo: string | null;
  readonly object: string;
  readonly message: string;
}

/** The sender and reply-to of Strapi's templates, and the templates that differ from Strapi's defaults. */
function emailSettings(value: unknown, report: string[]): { email: { from: string | null; replyTo: string | null }; templates: Record<string, StrapiTemplate> } {
  const stored = record(value);
  const read = (key: string): StrapiTemplate | null => {
    if (!(key in stored)) return null;
    const options = record(record(stored[key]).options);
    const from = record(options.from);
    const name = text(from.name);
    const address = text(from.email);
    // Strapi's own rule (services/user.js, controllers/auth.js): `name <email>` when both are set.
    return { from: name && address ? `${name} <${address}>` : address || null, replyTo: text(options.response_email) || null, object: text(options.object) ?? '', message: text(options.message) ?? '' };
  };
  const reset = read('reset_password');
  const confirmation = read('email_confirmation');
  const first = reset ?? confirmation;
  if (reset && confirmation && (reset.from !== confirmation.from || reset.replyTo !== confirmation.replyTo)) {
    report.push(`plugin_users-permissions_email: the two templates had different senders; contentgen has one: the reset-password one (${reset.from ?? 'none'}) is kept`);
  }
  let from = first?.from ?? null;
  if (from === strapiDefaultFrom) {
    report.push(`plugin_users-permissions_email: Strapi's default sender "${strapiDefaultFrom}" is not carried over; set email.from to an address of yours`);
    from = null;
  }
  const templates: Record<string, StrapiTemplate> = {};
  for (const [key, template] of [['reset_password', reset], ['email_confirmation', confirmation]] as const) {
    if (!template) continue;
    const known = strapiDefaultTemplates[key]!;
    if (same(template.object, known.object) && same(template.message, known.message)) continue;
    templates[key] = template;
    report.push(
      `plugin_users-permissions_email: the ${key} template was edited in Strapi (subject "${template.object}"); contentgen sends Strapi's default text: ` +
        `re-create it in src/email.ts (its text is in ${importedConfigPath}, strapiEmailTemplates)`,
    );
  }
  return { email: { from, replyTo: first?.replyTo ?? null }, templates };
}

/** Equal but for line endings and spacing, which the admin's editor changes by itself. */
function same(a: string, b: string): boolean {
  const squash = (s: string) => s.replace(/\s+/g, ' ').trim();
  return squash(a) === squash(b);
}

/** OAuth providers enabled in Strapi: contentgen serves none, and their keys are not copied. */
function reportProviders(value: unknown, report: string[]): void {
  const enabled = Object.entries(record(value))
    .filter(([name, provider]) => name !== 'email' && flag(record(provider).enabled) === true)
    .map(([name]) => name);
  if (enabled.length) {
    report.push(`plugin_users-permissions_grant: OAuth login through ${listed(enabled)} was enabled; contentgen serves no provider login (/api/connect/*), and their keys and secrets were not copied`);
  }
}

/** Header → its value, or `{ env }`: read from that environment variable. */
type Headers = Record<string, string | { env: string }>;

interface Endpoint {
  name: string;
  url: string;
  headers: Headers;
  events: string[];
  isEnabled: boolean;
}

interface Webhooks {
  defaultHeaders: Headers;
  endpoints: Endpoint[];
  /** Environment variable → the value Strapi had, for the secrets file. */
  secrets: [string, string][];
}

/**
 * Headers as the generated module writes them: a credential-like one becomes a read of an
 * environment variable named after `prefix` and the header, its value kept for the secrets file.
 */
class HeaderWriter {
  readonly secrets: [string, string][] = [];
  readonly #names = new Set<string>();

  write(headers: Record<string, unknown>, prefix: string, envOf: (header: string) => string | undefined = () => undefined): Headers {
    const out: Headers = {};
    for (const [header, value] of Object.entries(headers)) {
      const already = envOf(header);
      const plain = text(value) ?? '';
      if (already) out[header] = { env: already };
      else if (!secretHeader.test(header)) out[header] = plain;
      else {
        let env = `${prefix}_${envPart(header)}`;
        for (let n = 2; this.#names.has(env); n++) env = `${prefix}_${envPart(header)}_${n}`;
        this.#names.add(env);
        out[header] = { env };
        this.secrets.push([env, plain]);
      }
    }
    return out;
  }
}

/**
 * Strapi's webhooks, and the headers its config/server.js sent with every one of them
 * (`webhooks.defaultHeaders`: config, not data, but the build does not carry it).
 */
function webhooks(source: AuthSource, config: ProjectConfig | undefined, report: string[]): Webhooks {
  const endpoints: Endpoint[] = [];
  const headerWriter = new HeaderWriter();
  const names = new Set<string>();
  const serverHooks = record(config?.server.webhooks);
  const defaultHeaders = headerWriter.write(record(serverHooks.defaultHeaders), 'WEBHOOK_DEFAULT', (header) => config?.sources[sourceKey('server', ['webhooks', 'defaultHeaders', header])]?.name);
  for (const row of [...rowsOf(source, 'strapi_webhooks')].sort((a, b) => (id(a.id) ?? 0) - (id(b.id) ?? 0))) {
    const hookId = id(row.id);
    const url = text(row.url) ?? '';
    let parsed: URL | null = null;
    try {
      parsed = new URL(url);
    } catch {
      // reported below
    }
    if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) {
      report.push(`strapi_webhooks: webhook ${hookId} has no http(s) URL (${JSON.stringify(url)}); left out`);
      continue;
    }
    const base = (text(row.name) ?? '').trim() || `webhook-${hookId}`;
    let name = base;
    for (let n = 2; names.has(name); n++) name = `${base} (${n})`;
    if (name !== text(row.name)) report.push(`strapi_webhooks: webhook ${hookId} "${text(row.name) ?? ''}" is named "${name}" (names are unique here)`);
    names.add(name);

    const stored = json(row.events);
    const events = Array.isArray(stored) ? stored.map(String) : [];
    const unknown = events.filter((e) => !(webhookEvents as readonly string[]).includes(e));
    if (unknown.length) report.push(`strapi_webhooks: "${name}": ${count(unknown.length, 'event')} contentgen does not send, left out: ${listed(unknown)}`);
    const known = events.filter((e) => !unknown.includes(e));
    // An empty list would mean "every event" here; in Strapi a webhook with no event got none.
    const isEnabled = flag(row.enabled) ?? true;
    if (known.length === 0 && isEnabled) report.push(`strapi_webhooks: "${name}" has no event contentgen sends; written disabled`);

    const headers = headerWriter.write(record(json(row.headers)), `WEBHOOK_${envPart(name)}`);
    if (isPrivateHost(parsed.hostname)) {
      report.push(`strapi_webhooks: "${name}" posts to ${parsed.hostname}, a private or loopback address, which contentgen refuses unless webhooks.allowedAddresses lists it`);
    }
    endpoints.push({ name, url, headers, events: known, isEnabled: isEnabled && known.length > 0 });
  }
  const { secrets } = headerWriter;
  if (Object.keys(defaultHeaders).length) report.push(`config/server.js webhooks.defaultHeaders: ${listed(Object.keys(defaultHeaders))}, sent with every webhook, written with them`);
  if (secrets.length) {
    const one = secrets.length === 1;
    report.push(
      `strapi_webhooks: ${count(secrets.length, 'header')} that may hold credentials ${one ? 'is' : 'are'} read from the environment (${listed(secrets.map(([n]) => n))}); ` +
        `${one ? 'its value is' : 'their values are'} in ${webhookSecretsPath}`,
    );
  }
  return { defaultHeaders, endpoints, secrets };
}

/** `X-Secret` → `X_SECRET`. */
function envPart(name: string): string {
  return name.normalize('NFKD').replace(/[^A-Za-z0-9]+/g, '_').replace(/^_+|_+$/g, '').toUpperCase() || 'X';
}

/** Loopback, private and link-local hosts, as written in the URL (names are resolved only when sending). */
function isPrivateHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (h === 'localhost' || h.endsWith('.localhost') || h.endsWith('.local') || h === '::1' || /^f[cd]/.test(h) || h.startsWith('fe80:')) return true;
  const ip = /^(\d+)\.(\d+)\.\d+\.\d+$/.exec(h);
  if (!ip) return false;
  const [a, b] = [Number(ip[1]), Number(ip[2])];
  return a === 127 || a === 10 || a === 0 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 169 && b === 254);
}

function importedConfigModule(advanced: AdvancedSettings, email: { from: string | null; replyTo: string | null }, templates: Record<string, StrapiTemplate>, hooks: Webhooks): string {
  const hasEnv = [hooks.defaultHeaders, ...hooks.endpoints.map((e) => e.headers)].some((h) => Object.values(h).some((v) => typeof v !== 'string'));
  const headers = (h: Headers, indent: string) => {
    const key = (k: string) => (/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(k) ? k : tsLiteral(k));
    const entries = Object.entries(h).map(([k, v]) => `${indent}  ${key(k)}: ${typeof v === 'string' ? tsLiteral(v) : `fromEnvironment(${tsLiteral(v.env)})`},`);
    return entries.length ? `{\n${entries.join('\n')}\n${indent}}` : '{}';
  };
  const endpoint = (e: Endpoint, indent: string) =>
    [
      `${indent}{`,
      `${indent}  name: ${tsLiteral(e.name)},`,
      `${indent}  url: ${tsLiteral(e.url)},`,
      `${indent}  headers: ${headers(e.headers, `${indent}  `)},`,
      `${indent}  events: ${tsLiteral(e.events)},`,
      `${indent}  isEnabled: ${e.isEnabled},`,
      `${indent}},`,
    ].join('\n');
  const body = [
    ...(Object.keys(hooks.defaultHeaders).length ? [`    defaultHeaders: ${headers(hooks.defaultHeaders, '    ')},`] : []),
    hooks.endpoints.length ? `    endpoints: [\n${hooks.endpoints.map((e) => endpoint(e, '      ')).join('\n')}\n    ],` : '    endpoints: [],',
  ];
  const lines = [
    '/**',
    " * Written by `contentgen import` from the Strapi project's database (strapi_core_store_settings,",
    ' * strapi_webhooks). Each import writes it again; src/config.ts is yours and an import never',
    ' * changes it. To use these settings, in src/config.ts:',
    ' *',
    " *   import { advanced, email, webhooks } from './config.imported.js';",
    " *   plugins: { 'users-permissions': { …, advanced, email } },",
    ' *   webhooks: webhooks(),',
    ' *',
    ' * Or copy the values there and delete this file.',
    ' */',
    "import type { UsersPermissionsConfig } from './runtime/config.js';",
    "import type { WebhooksUserConfig } from './runtime/webhooks/config.js';",
    '',
    "/** Strapi's users-permissions advanced settings (plugin_users-permissions_advanced). */",
    `export const advanced = ${tsLiteral(advanced)} satisfies UsersPermissionsConfig['advanced'];`,
    '',
    "/** The sender of Strapi's users-permissions emails (the templates' from and response_email). */",
    `export const email = ${tsLiteral(email)} satisfies UsersPermissionsConfig['email'];`,
    '',
    "/** Strapi's webhooks (strapi_webhooks), one endpoint each, with the headers config/server.js sent with all of them. */",
    'export function webhooks(): WebhooksUserConfig {',
    `  return {\n${body.join('\n')}\n  };`,
    '}',
  ];
  if (hasEnv) {
    lines.push(
      '',
      `/** A webhook header read from the environment (the values of those copied from Strapi's database are in ${webhookSecretsPath}). */`,
      'function fromEnvironment(name: string): string {',
      '  const value = process.env[name];',
      `  if (value === undefined || value === '') throw new Error(\`\${name} is not set: a webhook header imported from Strapi reads it (see ${webhookSecretsPath})\`);`,
      '  return value;',
      '}',
    );
  }
  if (Object.keys(templates).length) {
    lines.push(
      '',
      "/** Strapi's email templates that were edited there (lodash templates: <%= URL %>, <%= TOKEN %>, <%= CODE %>, <%= USER.email %>); re-create them in src/email.ts. */",
      `export const strapiEmailTemplates = ${tsLiteral(templates)};`,
    );
  }
  return `${lines.join('\n')}\n`;
}
