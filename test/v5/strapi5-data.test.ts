/**
 * The Strapi 5.54.0 recordings (fixtures/strapi5-data, test/v5/recorder) hold together: each dump
 * restores, every documentId the answers show is a row of the dump (so the database and the answers
 * are one recording), drafts and published copies share a documentId, the printed schema parses,
 * and normalising is stable (what #30's comparisons rely on).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { buildSchema } from 'graphql';
import { describe, expect, it } from 'vitest';
import type { RecordedRequest } from '../helpers/strapi-data.js';
import { fixturesDir } from '../helpers/paths.js';
import { normaliseRecording } from './recorder/normalise.js';

const read = (set: string, file: string) => readFileSync(path.join(fixturesDir, 'strapi5-data', set, file), 'utf8');

const lastReads: Record<string, string[]> = {
  blog: ['final.articles.published', 'final.articles.draft'],
  'blog-v4compat': ['compat.articles_connection'],
  i18n: ['pages.delete.all.read', 'graphql.pages.afterDelete'],
};

describe.each(Object.keys(lastReads))('Strapi 5 recording: %s', (set) => {
  const documents = set === 'i18n' ? 'pages' : 'articles';
  const answers = JSON.parse(read(set, 'answers.json')) as { strapiVersion: string; requests: RecordedRequest[] };
  const db = new BetterSqlite3(':memory:');
  db.exec(read(set, 'sqlite.sql'));

  it('is Strapi 5.54.0 and its dump restores, with link and component tables', () => {
    expect(answers.strapiVersion).toBe('5.54.0');
    const names = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map((t) => t.name);
    expect(names.filter((n) => n.endsWith('_lnk')).length).toBeGreaterThan(3);
    expect(names.filter((n) => n.endsWith('_cmps')).length).toBeGreaterThan(0);
    expect(names).toContain('files_related_mph');
  });

  it('answers documentIds of 24 cuid2 characters, and its last reads only documents of its own database', () => {
    const tables = (db.prepare("SELECT m.name FROM sqlite_master m WHERE m.type = 'table' AND EXISTS (SELECT 1 FROM pragma_table_info(m.name) WHERE name = 'document_id')").all() as { name: string }[]).map((t) => t.name);
    const known = new Set<string>();
    for (const table of tables) for (const { d } of db.prepare(`SELECT document_id AS d FROM "${table}"`).all() as { d: string }[]) known.add(d);
    const documentIds = (requests: RecordedRequest[]) => {
      const seen = new Set<string>();
      const walk = (value: unknown): void => {
        if (Array.isArray(value)) value.forEach(walk);
        else if (value && typeof value === 'object') for (const [key, inner] of Object.entries(value)) key === 'documentId' && typeof inner === 'string' ? seen.add(inner) : walk(inner);
      };
      for (const request of requests) walk(request.answer);
      return seen;
    };
    const all = documentIds(answers.requests);
    expect(all.size).toBeGreaterThan(4);
    for (const id of all) expect(id).toMatch(/^[a-z][a-z0-9]{23}$/);
    const last = documentIds(answers.requests.filter((r) => lastReads[set]!.includes(r.name)));
    expect(last.size).toBeGreaterThan(1);
    for (const id of last) expect(known.has(id)).toBe(true);
  });

  it('keeps a draft row and a published row per published draftAndPublish document', () => {
    const groups = db.prepare(`SELECT document_id, locale, sum(published_at IS NULL) AS drafts, sum(published_at IS NOT NULL) AS published FROM "${documents}" GROUP BY document_id, locale`).all() as { drafts: number; published: number }[];
    expect(groups.length).toBeGreaterThan(2);
    for (const group of groups) {
      expect(group.drafts).toBe(1);
      expect(group.published).toBeLessThanOrEqual(1);
    }
  });

  it('prints a schema that parses', () => {
    const schema = buildSchema(read(set, 'schema.graphql'));
    expect(schema.getType('DeleteMutationResponse')).toBeDefined();
    expect(schema.getQueryType()?.getFields()[`${documents}_connection`]).toBeDefined();
  });

  it('normalises to the same form twice, with nothing random left', () => {
    const once = normaliseRecording(answers.requests, { ids: true });
    expect(normaliseRecording(once, { ids: true })).toEqual(once);
    const text = JSON.stringify(once);
    expect(text).not.toMatch(/(?<![A-Za-z0-9])[a-z][a-z0-9]{23}(?![A-Za-z0-9])/);
    // The only timestamps left are the ones the script wrote (lastReviewedAt).
    expect(text.match(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/g)?.filter((t) => t !== '2024-01-15T09:00:00.000Z') ?? []).toEqual([]);
  });
});
