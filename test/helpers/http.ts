/** A small JSON client for behaviour tests: real HTTP, no mocks. */
export interface JsonResponse {
  status: number;
  body: any;
  headers: Headers;
}

/** `defaultHeaders` go with every request (e.g. `bearer(token)` from helpers/server.ts). */
export function client(baseUrl: string, defaultHeaders: Record<string, string> = {}) {
  async function request(method: string, path: string, body?: unknown, extraHeaders: Record<string, string> = {}): Promise<JsonResponse> {
    const headers = { ...defaultHeaders, ...extraHeaders };
    const res = await fetch(baseUrl + path, {
      method,
      redirect: 'manual',
      headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text === '' ? undefined : JSON.parse(text);
    } catch {
      // not JSON: keep the text
    }
    return { status: res.status, body: parsed, headers: res.headers };
  }
  return {
    request,
    get: (path: string, headers?: Record<string, string>) => request('GET', path, undefined, headers),
    post: (path: string, body?: unknown, headers?: Record<string, string>) => request('POST', path, body, headers),
    put: (path: string, body?: unknown, headers?: Record<string, string>) => request('PUT', path, body, headers),
    del: (path: string, headers?: Record<string, string>) => request('DELETE', path, undefined, headers),
  };
}

/** How many statements the server sent to the database for a request (`Server-Timing`, with SERVER_TIMING=1). */
export function statementsOf(headers: Headers): number {
  return Number(/desc="(\d+) queries"/.exec(headers.get('server-timing') ?? '')?.[1]);
}

/** A request's body and statement count, or an error naming the status when it is not `status`. */
export async function withStatements(res: Promise<{ status: number; body: any; headers: Headers }>, status = 200): Promise<{ body: any; statements: number }> {
  const r = await res;
  if (r.status !== status) throw new Error(`${r.status} ${JSON.stringify(r.body)}`);
  return { body: r.body, statements: statementsOf(r.headers) };
}
