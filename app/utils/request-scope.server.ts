import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * Work shared by the loaders of one page request. The root, the authenticated layout and the page each need the
 * signed-in user; without this they would each ask the API for it.
 *
 * The web server (server/web.ts) opens a scope for every GET and HEAD: it names the request with a random id in a
 * header of its own, which every loader's `Request` carries (Remix copies the headers into each), and drops the
 * scope when the answer is done. A client cannot choose the id: whatever it sent in that header is removed first.
 * Writes (POST and the rest) get no scope: after an action the page must see fresh data.
 *
 * Why not AsyncLocalStorage: on Node 20 it installs promise hooks for the whole process once it is first used, and
 * every promise after that pays for them. In the one-process server that made the api's reads about a third slower
 * once the first page had been served (docs/benchmarks.md).
 *
 * The scopes are found through a global symbol because the server entry and the Remix build are bundled separately.
 */
export const SCOPE_HEADER = 'x-stagedoor-scope';

type Scope = Map<string, Promise<unknown>>;
const KEY = Symbol.for('stagedoor.request-scopes');
const registry = globalThis as typeof globalThis & { [KEY]?: Map<string, Scope> };
const scopes = (registry[KEY] ??= new Map<string, Scope>());

/** Opens the scope of a page request (GET or HEAD) until its answer is done. */
export function openRequestScope(req: IncomingMessage, res: ServerResponse) {
  delete req.headers[SCOPE_HEADER];
  if (req.method !== 'GET' && req.method !== 'HEAD') return;
  const id = randomUUID();
  req.headers[SCOPE_HEADER] = id;
  scopes.set(id, new Map());
  res.once('close', () => scopes.delete(id));
}

/** How many scopes are open (for tests: each is closed with its answer). */
export const openScopes = () => scopes.size;

/** Runs `work` once per request and key; outside a request scope it simply runs it. */
export function oncePerRequest<T>(request: Request, key: string, work: () => Promise<T>): Promise<T> {
  const id = request.headers.get(SCOPE_HEADER);
  const scope = id ? scopes.get(id) : undefined;
  if (!scope) return work();
  let pending = scope.get(key) as Promise<T> | undefined;
  if (!pending) {
    pending = work();
    scope.set(key, pending);
  }
  return pending;
}
