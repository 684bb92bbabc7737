/**
 * `POST /api/upload` with `ref`, `refId` and `field` (Strapi v4's upload body): the new files
 * are linked to that entry's media field in the upload's transaction — a single media field
 * gets the (last) new file, a multiple one gets them at its end. Checked before anything is
 * stored: the content type, its media field and the entry must exist (Strapi stores a link to
 * whatever it is given), the caller must be allowed to `update` that type (Strapi only asks
 * for the upload permission, so anyone who may upload could change any entry's media), and
 * the files must be of the field's `allowedTypes`.
 */
import type { Database } from '../db/database.js';
import { ForbiddenError, ValidationError } from '../errors.js';
import type { ContentTypeMeta, FieldMeta, Registry } from '../meta.js';
import { assertTargetsExist, writeLinks } from '../entity/relations.js';
import { assertAllowedTypes } from './allowed-types.js';

type MediaField = Extract<FieldMeta, { kind: 'media' }>;

export interface MediaLink {
  readonly meta: ContentTypeMeta;
  readonly field: MediaField;
  readonly entryId: number;
}

const invalid = () => new ValidationError('ref, refId and field must name an entry and one of its media fields');

/** The link an upload body asks for, or undefined when it names none; throws on a wrong one. */
export function mediaLinkOf(
  fields: ReadonlyMap<string, readonly string[]>,
  registry: Registry | undefined,
  can: (action: string) => boolean,
): MediaLink | undefined {
  const value = (name: string) => fields.get(name)?.at(-1)?.trim();
  const [ref, refId, fieldName] = [value('ref'), value('refId'), value('field')];
  if (!ref && !refId && !fieldName) return undefined;
  const meta = ref ? registry?.contentTypes.get(ref) : undefined;
  const field = meta && fieldName ? meta.fields[fieldName] : undefined;
  if (!meta || field?.kind !== 'media' || !field.link || !refId || !/^[1-9]\d{0,15}$/.test(refId)) throw invalid();
  if (!can(`${meta.uid}.update`)) throw new ForbiddenError();
  return { meta, field, entryId: Number(refId) };
}

/** Before the files are stored: the entry exists. */
export async function checkMediaLink(db: Database, link: MediaLink): Promise<void> {
  await assertTargetsExist(db, link.meta, [link.entryId]).catch((err: unknown) => {
    throw err instanceof ValidationError ? invalid() : err;
  });
}

/** Once the files are read (their types known): each is of the field's `allowedTypes`. */
export function assertLinkTypes(link: MediaLink, files: readonly { readonly name: string; readonly mime: string | null }[]): void {
  for (const file of files) assertAllowedTypes(link.field, file);
}

/** In the upload's transaction, once the file rows exist. */
export async function writeMediaLink(db: Database, link: MediaLink, fileIds: readonly number[]): Promise<void> {
  if (fileIds.length === 0) return;
  const input = link.field.multiple ? { kind: 'edit' as const, connect: fileIds.map((id) => ({ id })), disconnect: [], strict: true } : { kind: 'set' as const, ids: [fileIds.at(-1)!] };
  await writeLinks(db, link.field, link.entryId, input);
}
