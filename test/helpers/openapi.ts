/**
 * A real answer checked against what an OpenAPI 3.1 document says the operation answers: the
 * response of its status (`$ref`s to components followed), and the JSON schema of its body
 * (JSON Schema 2020-12, as OpenAPI 3.1's are) run by Ajv on the body.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';

type Json = Record<string, any>;

export class AnswerChecker {
  private readonly ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });

  constructor(private readonly document: Json) {
    // The document itself holds the schemas: `#/components/schemas/X` resolves in it.
    this.ajv.addSchema({ $id: 'openapi', components: document.components });
  }

  /** The documented response of `method path` for `status` (undefined: not documented). */
  response(path: string, method: string, status: number): Json | undefined {
    const operation = this.document.paths?.[path]?.[method.toLowerCase()];
    let response = operation?.responses?.[String(status)];
    while (response?.$ref) response = this.document.components.responses[String(response.$ref).split('/').pop()!];
    return response;
  }

  /** Why `body` is not what `method path` documents for `status`: [] when it is. */
  problems(path: string, method: string, status: number, body: unknown): string[] {
    const response = this.response(path, method, status);
    if (!response) return [`${method.toUpperCase()} ${path} documents no ${status} answer`];
    const schema = response.content?.['application/json']?.schema;
    if (!schema) return body === undefined || body === '' || body === null ? [] : [`${method.toUpperCase()} ${path} ${status} documents no body, got ${JSON.stringify(body).slice(0, 200)}`];
    const validate = this.ajv.compile(rebase(schema));
    if (validate(body)) return [];
    return (validate.errors ?? []).map((e) => `${method.toUpperCase()} ${path} ${status}: ${e.instancePath || '/'} ${e.message} (${e.schemaPath})`);
  }
}

/** An inline schema whose `$ref`s point into the document (`openapi#/…`). */
function rebase(schema: unknown): any {
  if (Array.isArray(schema)) return schema.map(rebase);
  if (!schema || typeof schema !== 'object') return schema;
  return Object.fromEntries(Object.entries(schema).map(([key, value]) => [key, key === '$ref' && typeof value === 'string' && value.startsWith('#/') ? `openapi${value}` : rebase(value)]));
}
