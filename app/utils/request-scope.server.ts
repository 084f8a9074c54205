import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Work shared by the loaders of one page request. The root, the authenticated layout and the page each need the
 * signed-in user; without this they would each ask the API for it. The web server (server/web.ts) opens a scope
 * for every GET; the store is found through a global symbol because the server entry and the Remix build are
 * bundled separately. Writes (POST and the rest) get no scope: after an action the page must see fresh data.
 */
const KEY = Symbol.for('stagedoor.request-scope');
type Scope = Map<string, Promise<unknown>>;
const registry = globalThis as typeof globalThis & { [KEY]?: AsyncLocalStorage<Scope> };

export const requestScope = (registry[KEY] ??= new AsyncLocalStorage<Scope>());

/** Runs `work` once per request and key; outside a request scope it simply runs it. */
export function oncePerRequest<T>(key: string, work: () => Promise<T>): Promise<T> {
  const scope = requestScope.getStore();
  if (!scope) return work();
  let pending = scope.get(key) as Promise<T> | undefined;
  if (!pending) {
    pending = work();
    scope.set(key, pending);
  }
  return pending;
}
