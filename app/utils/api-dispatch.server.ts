/**
 * In the one-process server (SERVE=all, the default) the web tier's request helper hands its calls to the api in
 * the same process instead of sending them over a loopback socket: the same routes, hooks, guards and answers
 * (Fastify's inject), without the two HTTP stacks in between, which cost more than half of a call's CPU
 * (docs/decisions/005-in-process-api.md). server/index.ts registers the api here; with the tiers apart (SERVE=web,
 * or API_URL pointing elsewhere) nothing is registered and the helper uses HTTP.
 *
 * Found through a global symbol because the server entry and the Remix build are bundled separately.
 */
export interface DispatchRequest {
  method: string;
  /** Path and query string, e.g. /users/me?x=1. */
  url: string;
  headers: Record<string, string>;
  body?: string;
}

export interface DispatchAnswer {
  status: number;
  body: string;
}

export type ApiDispatch = (request: DispatchRequest) => Promise<DispatchAnswer>;

const KEY = Symbol.for('stagedoor.api-dispatch');
const registry = globalThis as typeof globalThis & { [KEY]?: ApiDispatch };

export function registerApiDispatch(dispatch: ApiDispatch | undefined) {
  registry[KEY] = dispatch;
}

export function apiDispatch(): ApiDispatch | undefined {
  return registry[KEY];
}
