/**
 * Comparing contentgen's `/v5/graphql` with a Strapi 5 recording: recorded requests are sent with
 * Strapi's documentIds (in variables) mapped to ours, and each documentId of our answer that names
 * the document Strapi named at that place is written as Strapi's; then both are normalised as two
 * Strapi recordings are (normalise.ts), GraphQL's string ids (component and compatibility ids) like
 * numeric ones.
 */
import type { RecordedRequest } from '../helpers/strapi-data.js';
import { normaliseRecording } from './recorder/normalise.js';

type Json = Record<string, any>;

export interface V5GraphqlTarget {
  /** The server's base URL. */
  readonly url: () => string;
  /** Strapi's documentId → ours. */
  readonly ours: ReadonlyMap<string, string>;
  /** Headers of a recorded request's `auth` (`public`, `token:full-access`, `user:<name>`). */
  readonly headers: (auth: string) => Record<string, string>;
}

function mapped(value: unknown, ours: ReadonlyMap<string, string>): unknown {
  if (typeof value === 'string') return ours.get(value) ?? value;
  if (Array.isArray(value)) return value.map((v) => mapped(v, ours));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mapped(v, ours)]));
  return value;
}

function withStrapiIds(mine: unknown, theirs: unknown, ours: ReadonlyMap<string, string>): unknown {
  if (Array.isArray(mine)) return mine.map((item, i) => withStrapiIds(item, Array.isArray(theirs) ? theirs[i] : undefined, ours));
  if (mine && typeof mine === 'object') {
    const other = (theirs && typeof theirs === 'object' ? theirs : {}) as Json;
    return Object.fromEntries(
      Object.entries(mine).map(([key, value]) => {
        if (key !== 'documentId' || typeof value !== 'string') return [key, withStrapiIds(value, other[key], ours)];
        // Another document than Strapi's at this place: kept out of the normaliser's reach, so it differs.
        return [key, typeof other[key] === 'string' && ours.get(other[key]) === value ? other[key] : `not Strapi's document: ${value.toUpperCase()}`];
      }),
    );
  }
  return mine;
}

export function normalised(request: RecordedRequest): RecordedRequest {
  const ids = (value: unknown, key?: string): unknown => {
    if (key === 'id' && typeof value === 'string' && /^\d+$/.test(value)) return '<id>';
    if (Array.isArray(value)) return value.map((item) => ids(item));
    if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, ids(v, k)]));
    return value;
  };
  return ids(normaliseRecording([request], { ids: true })[0]!) as RecordedRequest;
}

/** Sends a recorded GraphQL request to `/v5/graphql`; the answer as Strapi's documentIds would name it. */
export async function askV5(target: V5GraphqlTarget, request: RecordedRequest): Promise<RecordedRequest> {
  const body = request.body as Json;
  const res = await fetch(`${target.url()}/v5/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...target.headers(request.auth) },
    body: JSON.stringify({ ...body, ...(body.variables ? { variables: mapped(body.variables, target.ours) } : {}) }),
  });
  const text = await res.text();
  return { ...request, status: res.status, answer: withStrapiIds(text ? JSON.parse(text) : null, request.answer, target.ours) };
}

/** `{ status, answer }` of ours and of Strapi's, normalised, for `expect(…).toEqual(…)`. */
export async function compareV5(target: V5GraphqlTarget, request: RecordedRequest): Promise<{ ours: Json; strapi: Json }> {
  const [actual, expected] = [normalised(await askV5(target, request)), normalised(request)];
  return { ours: { status: actual.status, answer: actual.answer }, strapi: { status: expected.status, answer: expected.answer } };
}
