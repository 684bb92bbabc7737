/**
 * Content types built before documentIds existed (docs/strapi5.md "Identity") get the column
 * in three steps, since a NOT NULL unique column cannot be added to a table with rows:
 * the column is added nullable (the diff to `relaxedSchema`), every row is given a random
 * 24-character id in SQL (a letter, then 23 hex digits; the localizations of an entry take
 * the id of the first of them), and the diff from there to the real schema makes it NOT NULL
 * and unique (per locale when localized).
 */
import { documentIdColumn, documentIdPrismaField } from '../ir/identifiers.js';
import type { ContentType, Provider, Schema } from '../ir/types.js';

/** The content types whose table has rows without a documentId: in the previous schema, without the column. */
export function typesGainingDocumentId(ir: Schema, previousSchema: string): ContentType[] {
  return ir.contentTypes.filter((ct) => {
    const block = modelBlock(previousSchema, ct.names.model);
    return block !== undefined && !new RegExp(`^\\s+${documentIdPrismaField}\\s`, 'm').test(block);
  });
}

/** `next` with the documentId of `types` nullable and neither unique nor part of a unique key. */
export function relaxedSchema(next: string, types: readonly ContentType[]): string {
  let schema = next;
  for (const ct of types) {
    const block = modelBlock(schema, ct.names.model);
    if (block === undefined) continue;
    const relaxed = block
      .replace(new RegExp(`^(\\s+${documentIdPrismaField}\\s+)String\\s.*$`, 'm'), `$1String? @map("${documentIdColumn}")`)
      .replace(new RegExp(`^\\s+@@unique\\(\\[${documentIdPrismaField}, .*\\n`, 'm'), '');
    schema = schema.replace(block, relaxed);
  }
  return schema;
}

/** The SQL giving every row of `types` its documentId, shared within each localization group. */
export function documentIdBackfill(types: readonly ContentType[], provider: Provider): string {
  const q = (name: string) => (provider === 'mysql' ? `\`${name}\`` : `"${name}"`);
  const column = q(documentIdColumn);
  const statements: string[] = [];
  for (const ct of types) {
    const table = q(ct.names.table);
    statements.push(`-- ${ct.uid}: every entry gets a documentId\nUPDATE ${table} SET ${column} = ${randomId(provider)} WHERE ${column} IS NULL;\n`);
    const link = ct.localized ? localizationsLink(ct) : undefined;
    if (!link) continue;
    const owner = q(link.ownerColumn);
    const target = q(link.targetColumn);
    const links = q(link.table);
    // A group links each of its entries to every other: the first one's id (its smallest)
    // is the smallest any other entry of the group links to, and that entry keeps its own.
    statements.push(
      `-- ${ct.uid}: the localizations of an entry share the documentId of the first of them\n` +
        (provider === 'mysql'
          ? `UPDATE ${table} AS e JOIN (SELECT l.${owner} AS id, MIN(l.${target}) AS first_id FROM ${links} AS l GROUP BY l.${owner}) AS g ON g.id = e.${q('id')} ` +
            `JOIN ${table} AS f ON f.${q('id')} = g.first_id SET e.${column} = f.${column} WHERE g.first_id < e.${q('id')};\n`
          : `UPDATE ${table} SET ${column} = (SELECT f.${column} FROM ${table} AS f WHERE f.${q('id')} = (SELECT MIN(l.${target}) FROM ${links} AS l WHERE l.${owner} = ${table}.${q('id')})) ` +
            `WHERE (SELECT MIN(l.${target}) FROM ${links} AS l WHERE l.${owner} = ${table}.${q('id')}) < ${table}.${q('id')};\n`),
    );
  }
  return statements.length ? `\n${statements.join('\n')}` : '';
}

/**
 * The SQL run before the diff when types stop being localized: their entries become entries
 * of their own, as the locale column goes, so each localization but the first (by id) of a
 * document gets a documentId of its own before documentId is made unique again.
 */
export function delocalizedDocumentIds(ir: Schema, previousSchema: string, provider: Provider): string {
  const q = (name: string) => (provider === 'mysql' ? `\`${name}\`` : `"${name}"`);
  const column = q(documentIdColumn);
  const id = q('id');
  const statements: string[] = [];
  for (const ct of ir.contentTypes) {
    const block = modelBlock(previousSchema, ct.names.model);
    if (ct.localized || block === undefined || !new RegExp(`^\\s+@@unique\\(\\[${documentIdPrismaField}, `, 'm').test(block)) continue;
    const table = q(ct.names.table);
    statements.push(
      `-- ${ct.uid} is no longer localized: each of its entries is a document of its own\n` +
        (provider === 'mysql'
          ? `UPDATE ${table} AS e JOIN (SELECT ${column} AS document_id, MIN(${id}) AS first_id FROM ${table} GROUP BY ${column}) AS g ON g.document_id = e.${column} ` +
            `SET e.${column} = ${randomId(provider)} WHERE e.${id} <> g.first_id;\n`
          : `UPDATE ${table} SET ${column} = ${randomId(provider)} WHERE ${id} NOT IN (SELECT MIN(${id}) FROM ${table} GROUP BY ${column});\n`),
    );
  }
  return statements.length ? `${statements.join('\n')}\n` : '';
}

/** A letter then 23 hex digits, random per row: the shape (24 characters of `[a-z0-9]`, a letter first) of Strapi's cuid2 ids. */
function randomId(provider: Provider): string {
  const letters = `'abcdefghijklmnopqrstuvwxyz'`;
  switch (provider) {
    case 'sqlite':
      return `substr(${letters}, 1 + abs(random()) % 26, 1) || substr(lower(hex(randomblob(12))), 1, 23)`;
    case 'postgresql':
      return `substr(${letters}, 1 + floor(random() * 26)::int, 1) || substr(md5(random()::text || clock_timestamp()::text || random()::text), 1, 23)`;
    case 'mysql':
      return `CONCAT(SUBSTRING(${letters}, 1 + FLOOR(RAND() * 26), 1), SUBSTRING(MD5(CONCAT(RAND(), UUID(), RAND())), 1, 23))`;
  }
}

function localizationsLink(ct: ContentType) {
  const field = ct.attributes.find((a) => a.name === 'localizations');
  return field?.kind === 'relation' ? field.link : undefined;
}

function modelBlock(schema: string, model: string): string | undefined {
  return new RegExp(`^model ${model} \\{\\n[\\s\\S]*?^\\}`, 'm').exec(schema)?.[0];
}
