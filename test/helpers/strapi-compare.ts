/**
 * Comparing a contentgen server's answers with Strapi 4.26.2's recorded ones after an import
 * (test/import/import.test.ts on the recorded data sets, test/real-projects/import-roundtrip.ts
 * on real projects' models): what differs by design is normalised on both sides, nothing else.
 */
import type { StrapiDialect } from './strapi-data.js';

/**
 * What contentgen's server answers differently from Strapi for reasons that are not the
 * import's (each a runtime difference, reported as such), applied to both answers before they
 * are compared, so that every other difference fails the test:
 *  - Strapi on SQLite reads bigintegers as JS numbers (9007199254740993 → "9007199254740992");
 *    the import keeps them exact: compared as numbers.
 *  - a morph relation's target: Strapi shows its private attributes, contentgen does not.
 *  - a time: Strapi on PostgreSQL answers the database's text (`10:30:00`), contentgen `10:30:00.000`.
 *  - `/api/upload/files` without a sort: Strapi answers in the database's physical order (an
 *    updated row last on PostgreSQL), contentgen by id: compared by id.
 *  - a custom role's description: contentgen's (`Role "editor" declared in permissions.json.`),
 *    as permissions.json declares roles (the auth import's notes say so); roles listed by id.
 */
export function comparableBody(value: unknown, dialect: StrapiDialect, key = '', depth = 0): unknown {
  if (typeof value === 'string' && dialect === 'sqlite' && /^-?\d{16,}$/.test(value)) return Number(value);
  if (typeof value === 'string' && /^\d{2}:\d{2}:\d{2}$/.test(value)) return `${value}.000`;
  if (Array.isArray(value)) {
    return value.map((v) => comparableBody(v, dialect, '', depth + 1));
  }
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    const role = 'type' in value && 'description' in value && 'name' in value;
    for (const [k, v] of Object.entries(value)) {
      if ((key === 'subject' || key === 'items') && k === 'secret') continue;
      if (role && k === 'description' && !['public', 'authenticated'].includes(String((value as { type: unknown }).type))) continue;
      if (k === 'roles' && Array.isArray(v)) {
        out[k] = comparableBody([...v].sort((a, b) => a.id - b.id), dialect, k, depth + 1);
        continue;
      }
      out[k] = comparableBody(v, dialect, k, depth + 1);
    }
    return out;
  }
  return value;
}

/**
 * The import makes localization groups whole (issue 26): where Strapi linked an entry one way
 * only (de → fr, not fr → de), the server lists every member of the group. Where our list holds
 * every entry Strapi's holds, ours is cut to those, in our order, so the rest is compared as is.
 */
export function wholeGroupsAsStrapiSaw(ours: unknown, strapi: unknown, key = ''): unknown {
  if (Array.isArray(ours) && Array.isArray(strapi)) {
    if (key === 'localizations-data') {
      const wanted = new Set(strapi.map((e) => (e as { id?: unknown })?.id));
      const kept = ours.filter((e) => wanted.has((e as { id?: unknown })?.id));
      if (kept.length === wanted.size) return kept.map((e) => wholeGroupsAsStrapiSaw(e, strapi.find((x) => (x as { id?: unknown }).id === (e as { id?: unknown }).id)));
    }
    return ours.map((e, i) => wholeGroupsAsStrapiSaw(e, strapi[i]));
  }
  if (ours && typeof ours === 'object' && strapi && typeof strapi === 'object' && !Array.isArray(strapi)) {
    const other = strapi as Record<string, unknown>;
    return Object.fromEntries(Object.entries(ours).map(([k, v]) => [k, wholeGroupsAsStrapiSaw(v, other[k], key === 'localizations' && k === 'data' ? 'localizations-data' : k)]));
  }
  return ours;
}


/**
 * Drafts Strapi 4.26.2 shows in a live read (no `publicationState=preview`) where contentgen does
 * not: entries reached through a dynamic zone populated with `on` fragments. Strapi's database
 * layer (morphToMany: `qb.init(on[type])`) drops the live filter it passes down everywhere else,
 * so a draft linked from a zone's component is shown to the public; contentgen keeps it hidden
 * (docs/rest.md, deliberate differences). Applied to Strapi's live answers only: relation
 * `data` whose `publishedAt` is null is taken out (a list) or set to null (one entry).
 */
export function withoutLeakedDrafts(value: unknown): unknown {
  const isDraft = (e: unknown) => (e as { attributes?: { publishedAt?: unknown } } | null)?.attributes?.publishedAt === null;
  if (Array.isArray(value)) return value.map(withoutLeakedDrafts);
  if (!value || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if (k === 'data' && Array.isArray(v)) out[k] = v.filter((e) => !isDraft(e)).map(withoutLeakedDrafts);
    else if (k === 'data' && Object.keys(value).length === 1 && isDraft(v)) out[k] = null;
    else out[k] = withoutLeakedDrafts(v);
  }
  return out;
}

/**
 * Whether Strapi read a recorded request live: lists and single types unless asked for a
 * preview. A findOne reads no publication state at all (Strapi 4's entity service passes only
 * `fields` and `populate`), drafts included, as contentgen does.
 */
export function isLiveRead(request: { name: string; path: string }): boolean {
  return !request.path.includes('publicationState=preview') && !request.name.includes('.findOne.');
}
