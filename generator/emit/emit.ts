/**
 * Stage 4: every emitter reads the IR and returns files; none touches the disk, the clock
 * or randomness. Headers are added here, once, for all of them.
 */
import type { Schema } from '../ir/types.js';
import { bannerText, userFileText, withHeader } from '../write/banner.js';
import { authPrismaModels, emitAuth } from './auth/auth.js';
import { FileMap } from './file-map.js';
import { emitClient } from './client/client.js';
import { emitGraphql } from './graphql/graphql.js';
import { emitGraphqlV5 } from './graphql-v5/graphql-v5.js';
import { emitOpenapi } from './openapi/openapi.js';
import { emitOpenapiV5 } from './openapi/v5.js';
import type { GraphqlInputs } from '../load/load-graphql.js';
import { noUserCode, type UserCodeInputs } from '../load/load-user-code.js';
import { componentIdModels, emitPrismaSchema } from './prisma/schema.js';
import { webhookOutboxModels } from './prisma/webhooks.js';
import { emitProject } from './project/project.js';
import { emitUserCode } from './project/user-code.js';
import { emitContentTypes } from './rest/content-types.js';
import { emitRuntime } from './runtime.js';

export interface EmitOptions {
  readonly name: string;
  /** The user files schema.graphql depends on (src/extensions/graphql.ts, src/config.ts). */
  readonly graphql?: GraphqlInputs;
  /** The user's code found in the output folder (src/api, src/policies, src/middlewares). */
  readonly userCode?: UserCodeInputs;
}

/** Ordered list of emitters; adding an output family means adding a row. */
const emitters: readonly ((ir: Schema, options: EmitOptions) => FileMap)[] = [
  (ir, options) => emitProject(ir, options),
  (ir, options) => emitUserCode(ir, options.userCode ?? noUserCode),
  (ir) => emitPrismaSchema(ir, [...authPrismaModels(ir), ...componentIdModels(ir), ...webhookOutboxModels(ir)]),
  (ir) => emitContentTypes(ir),
  (ir) => emitAuth(ir),
  // The GraphQL plugin's files exist when the project installs it.
  (ir, options) => (ir.plugins.graphql ? emitGraphql(ir, options.graphql) : new FileMap()),
  (ir) => emitGraphqlV5(ir),
  (ir, options) => emitOpenapi(ir, { name: options.name, ...(options.userCode ? { userCode: options.userCode } : {}) }),
  (ir, options) => emitOpenapiV5(ir, { name: options.name }),
  (ir) => emitRuntime(ir.plugins),
  (ir, options) => emitClient(ir, { name: options.name }),
];

export function emitAll(ir: Schema, options: EmitOptions): FileMap {
  const merged = new FileMap();
  for (const emit of emitters) merged.merge(emit(ir, options));
  return addHeaders(merged);
}

export function addHeaders(files: FileMap): FileMap {
  const out = new FileMap();
  for (const file of files.files()) {
    const header = file.ownership === 'user' ? userFileText : bannerText;
    out.add(file.path, withHeader(file.path, file.content, header), file.ownership);
  }
  return out;
}
