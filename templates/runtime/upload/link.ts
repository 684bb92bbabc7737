/**
 * `POST /api/upload` with `ref`, `refId` and `field` (Strapi v4's upload body): the new files
 * are linked to that entry's media field in the upload's transaction — a single media field
 * gets the (last) new file, a multiple one gets them at its end. `ref` may also be a component
 * uid and `refId` one of its instances (Strapi links media inside components the same way):
 * the file ids are written into that instance, in the JSON of the entry holding it
 * (component-owner.ts). Checked before anything is stored: the content type or component, its
 * media field and the entry or instance must exist (Strapi stores a link to whatever it is
 * given), the caller must be allowed to `update` the type (for a component, the type of the
 * entry holding it; Strapi only asks for the upload permission, so anyone who may upload could
 * change any entry's media), and the files must be of the field's `allowedTypes`.
 */
import type { Database } from '../db/database.js';
import { ForbiddenError, ValidationError } from '../errors.js';
import { prismaFieldOf, type ComponentMeta, type ContentTypeMeta, type FieldMeta, type Registry } from '../meta.js';
import { prismaJson } from '../entity/input.js';
import { assertTargetsExist, writeLinks } from '../entity/relations.js';
import { lockEntry } from '../entity/service.js';
import { assertAllowedTypes } from './allowed-types.js';
import { findInstanceOwner, readInstance, type InstanceOwner } from './component-owner.js';

type MediaField = Extract<FieldMeta, { kind: 'media' }>;

export type MediaLink = EntryMediaLink | ComponentMediaLink;

export interface EntryMediaLink {
  readonly kind: 'entry';
  readonly meta: ContentTypeMeta;
  readonly field: MediaField;
  readonly entryId: number;
}

export interface ComponentMediaLink {
  readonly kind: 'component';
  readonly component: ComponentMeta;
  readonly field: MediaField;
  readonly instanceId: number;
  readonly registry: Registry;
  /** Asked once the entry holding the instance is known. */
  readonly can: (action: string) => boolean;
  /** Set by checkMediaLink. */
  owner?: InstanceOwner;
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
  const validId = refId !== undefined && /^[1-9]\d{0,15}$/.test(refId);
  const component = ref && registry ? registry.components.get(ref) : undefined;
  if (component) {
    const field = fieldName ? component.fields[fieldName] : undefined;
    if (field?.kind !== 'media' || !validId) throw invalid();
    return { kind: 'component', component, field, instanceId: Number(refId), registry: registry!, can };
  }
  const meta = ref ? registry?.contentTypes.get(ref) : undefined;
  const field = meta && fieldName ? meta.fields[fieldName] : undefined;
  if (!meta || field?.kind !== 'media' || !field.link || !validId) throw invalid();
  if (!can(`${meta.uid}.update`)) throw new ForbiddenError();
  return { kind: 'entry', meta, field, entryId: Number(refId) };
}

/** Before the files are stored: the entry (or the instance, and the caller may update its entry) exists. */
export async function checkMediaLink(db: Database, link: MediaLink): Promise<void> {
  if (link.kind === 'component') {
    link.owner = await findInstanceOwner(db, link.registry, link.component.uid, link.instanceId);
    if (!link.owner) throw invalid();
    if (!link.can(`${link.owner.meta.uid}.update`)) throw new ForbiddenError();
    return;
  }
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
  if (link.kind === 'component') return writeComponentMedia(db, link, fileIds);
  const input = link.field.multiple ? { kind: 'edit' as const, connect: fileIds.map((id) => ({ id })), disconnect: [], strict: true } : { kind: 'set' as const, ids: [fileIds.at(-1)!] };
  await writeLinks(db, link.field, link.entryId, input);
}

/** Re-reads the instance under the entry's lock (a write may have replaced it since the check) and writes the ids into it. */
async function writeComponentMedia(db: Database, link: ComponentMediaLink, fileIds: readonly number[]): Promise<void> {
  const owner = link.owner!;
  await lockEntry(db, owner.meta, owner.entryId);
  const found = await readInstance(db, link.registry, owner, link.component.uid, link.instanceId);
  if (!found) throw invalid();
  const current = found.instance[link.field.name];
  const kept = Array.isArray(current) ? current.filter((id) => !fileIds.includes(id as number)) : [];
  found.instance[link.field.name] = link.field.multiple ? [...kept, ...fileIds] : fileIds.at(-1)!;
  await db.prisma[owner.meta.delegate].update({ where: { id: owner.entryId }, data: { [prismaFieldOf(owner.field)]: prismaJson(found.value) }, select: { id: true } });
}
