import type { AppLoadContext } from '@remix-run/node';
import type { ApiCall, ApiTransport } from './api-transport.server';
import { getSessionToken, logoutRedirect } from './session.server';

/** A non-success answer of the API: its status, and its body when it had one ({ status, message, errors, code }). */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: ApiErrorBody | undefined,
  ) {
    super(body?.message ?? `HTTP ${status}`);
    this.name = 'HttpError';
  }
  /** The field errors the API returned, if any. */
  get fieldErrors(): Record<string, string[]> {
    return this.body?.errors ?? {};
  }
}

export interface ApiErrorBody {
  status: number;
  message?: string;
  errors?: Record<string, string[]>;
  /** A machine-readable reason, when the api gives one (e.g. database_unavailable). */
  code?: string;
}

export function isHttpError(error: unknown, ...statuses: number[]): error is HttpError {
  return error instanceof HttpError && (statuses.length === 0 || statuses.includes(error.status));
}

type QueryValue = string | number | boolean | undefined | null | (string | number)[];

export interface CallOptions {
  /** The query string, e.g. { limit: 20 }; undefined and null entries are left out, a list is repeated. */
  params?: Record<string, QueryValue>;
  /**
   * Statuses the caller answers itself, thrown as an HttpError. Otherwise a 401 becomes the logout redirect and a 403 or
   * 404 the not-found page, so that loaders and actions read as the happy path.
   */
  handle?: number[];
  /** More request headers (e.g. Idempotency-Key on a payment). */
  headers?: Record<string, string>;
  /** Give up after this many milliseconds in all, retries included (default 10 s). */
  deadlineMs?: number;
}

type Method = ApiCall['method'];

interface Answer {
  status: number;
  body: unknown;
}

const RETRIES = 3;
const BACKOFF_START_MS = 1000;
const BACKOFF_CAP_MS = 30_000;
const RETRY_STATUSES = new Set([502, 503, 504]);
const DEADLINE_MS = 10_000;

/**
 * The web tier's one way to the api, bound to one page request: its session token, the
 * browser's address (for the api's per-address limits), the route's artist (for the logout redirect), its abort
 * signal, and a memo of the reads already answered, so that the root, a layout and a page asking for the same thing
 * (the signed-in user, the artist) cost one call. A write forgets the memo: what follows must see its effect.
 *
 * Reads are retried on network errors and 502/503/504 with exponential backoff from 1 s, never past the
 * deadline; writes never are. Every call returns the answer's body.
 */
export class ApiClient {
  readonly token: string | undefined;
  private readonly reads = new Map<string, Promise<Answer>>();

  constructor(
    private readonly transport: ApiTransport,
    private readonly scope: {
      request: Request;
      clientIp?: string;
      /** The page request's id, named on each call so the api's log lines and jobs carry it. */
      requestId?: string;
      artistUsername?: string;
      /** The first retry's delay, doubled for each next one; tests shorten it. */
      backoffMs?: number;
    },
    token = getSessionToken(scope.request),
  ) {
    this.token = token;
  }

  /** Where a call without a valid session sends the viewer: /logout, carrying the page asked for and the artist. */
  logoutRedirect() {
    return logoutRedirect(this.scope.request, this.scope.artistUsername);
  }

  /** The same client with another session token: the calls an action makes right after it logs the fan in. */
  withToken(token: string) {
    return new ApiClient(this.transport, this.scope, token);
  }

  get<T>(path: string, options?: CallOptions) {
    return this.call<T>('GET', path, undefined, options);
  }

  post<T>(path: string, body?: unknown, options?: CallOptions) {
    return this.call<T>('POST', path, body, options);
  }

  put<T>(path: string, body?: unknown, options?: CallOptions) {
    return this.call<T>('PUT', path, body, options);
  }

  patch<T>(path: string, body?: unknown, options?: CallOptions) {
    return this.call<T>('PATCH', path, body, options);
  }

  /** A DELETE; `body` is for the few that need proof with it (deleting an account takes the password). */
  delete<T>(path: string, options?: CallOptions & { body?: unknown }) {
    const { body, ...rest } = options ?? {};
    return this.call<T>('DELETE', path, body, rest);
  }

  /** A POST whose body is streamed as it is read (a file on its way from the browser): never held whole in memory. */
  upload<T>(path: string, body: ReadableStream<Uint8Array>, contentType: string, options?: CallOptions) {
    return this.call<T>('POST', path, { stream: body, contentType }, options);
  }

  private async call<T>(method: Method, path: string, body: unknown, options: CallOptions = {}): Promise<T> {
    const url = withQuery(path, options.params);
    let answer: Answer;
    if (method === 'GET') {
      let read = this.reads.get(url);
      if (!read) {
        read = this.send(method, url, undefined, options);
        this.reads.set(url, read);
        // A read that failed to arrive is not remembered: the next loader asks again.
        read.catch(() => this.reads.delete(url));
      }
      answer = await read;
    } else {
      this.reads.clear();
      answer = await this.send(method, url, body, options);
    }
    if (answer.status < 400) return answer.body as T;
    throw this.failure(method, answer, options.handle ?? []);
  }

  /** What a failed answer becomes: the logout redirect, the not-found page, a 503 page, or an HttpError for the caller. */
  private failure(method: Method, answer: Answer, handle: number[]) {
    const { status } = answer;
    const body = answer.body as ApiErrorBody | undefined;
    if (!handle.includes(status)) {
      if (status === 401) return this.logoutRedirect();
      if (status === 403 || status === 404) return new Response('Not found', { status: 404 });
      // A read the api cannot answer for a moment is a 503 page, not a 500: nothing is broken. A write stays an
      // HttpError, so the form that sent it can say so in its own words (the log-in form's "technical difficulties").
      if (status === 503 && method === 'GET') {
        return new Response(body?.message ?? 'Service unavailable', { status: 503, headers: { 'Retry-After': '5' } });
      }
    }
    return new HttpError(status, body);
  }

  private async send(method: Method, url: string, body: unknown, options: CallOptions): Promise<Answer> {
    const { request, clientIp, requestId, backoffMs = BACKOFF_START_MS } = this.scope;
    const headers: Record<string, string> = { ...options.headers, Accept: 'application/json' };
    if (this.token) headers.Authorization = `Bearer ${this.token}`;
    if (clientIp) headers['X-Forwarded-For'] = clientIp;
    if (requestId) headers['X-Request-Id'] = requestId;
    let payload: ApiCall['body'];
    if (isUpload(body)) {
      headers['Content-Type'] = body.contentType;
      payload = body.stream;
    } else if (body !== undefined) {
      headers['Content-Type'] = 'application/json';
      payload = JSON.stringify(body);
    }

    const deadline = Date.now() + (options.deadlineMs ?? DEADLINE_MS);
    const idempotent = method === 'GET';
    for (let attempt = 0; ; attempt++) {
      const delay = Math.min(backoffMs * 2 ** attempt, BACKOFF_CAP_MS);
      const mayRetry = idempotent && attempt < RETRIES && Date.now() + delay < deadline;
      let answer: Answer;
      try {
        // Each attempt gets what is left of the one deadline, so retries never stretch the whole call past it.
        const { status, text } = await withDeadline(request.signal, deadline - Date.now(), (signal) =>
          this.transport({ method, url, headers, body: payload, signal }),
        );
        answer = { status, body: parseBody(text, status) };
      } catch (error) {
        if (request.signal.aborted || !mayRetry) throw error;
        await sleep(delay);
        continue;
      }
      // The api says its database is out of reach: retrying at once would only make the fan wait longer.
      const databaseDown = (answer.body as ApiErrorBody | undefined)?.code === 'database_unavailable';
      if (mayRetry && RETRY_STATUSES.has(answer.status) && !databaseDown) {
        await sleep(delay);
        continue;
      }
      return answer;
    }
  }
}

const clients = new WeakMap<AppLoadContext, ApiClient>();

/**
 * The api client of this request (made from Remix's load context, server/web.ts): every loader and action of one
 * request gets the same client, and so shares its memo of reads.
 */
export function apiFor({ request, context, params }: { request: Request; context: AppLoadContext; params?: { artistUsername?: string } }) {
  let client = clients.get(context);
  if (!client) {
    client = new ApiClient(context.api, {
      request,
      clientIp: context.clientIp,
      requestId: context.requestId,
      artistUsername: params?.artistUsername,
    });
    clients.set(context, client);
  }
  return client;
}

function withQuery(path: string, params: CallOptions['params']) {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params ?? {})) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) value.forEach((v) => search.append(key, String(v)));
    else search.set(key, String(value));
  }
  const query = search.toString();
  const absolute = path.startsWith('/') ? path : `/${path}`;
  return query ? `${absolute}${absolute.includes('?') ? '&' : '?'}${query}` : absolute;
}

function isUpload(body: unknown): body is { stream: ReadableStream<Uint8Array>; contentType: string } {
  return typeof body === 'object' && body !== null && 'stream' in body && body.stream instanceof ReadableStream;
}

function parseBody(text: string, status: number): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return { status, message: text.slice(0, 200) };
  }
}

/**
 * Runs `work` with a signal that aborts when the page's request is aborted or `ms` pass, whichever comes first. A
 * plain timer, cleared as soon as the answer comes, rather than AbortSignal.timeout: a page makes several calls, and
 * each such signal would live (with its timer) for the whole deadline.
 */
async function withDeadline<T>(outer: AbortSignal, ms: number, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  outer.throwIfAborted();
  const controller = new AbortController();
  const abort = () => controller.abort(outer.reason);
  const timer = setTimeout(() => controller.abort(new DOMException('The api did not answer in time.', 'TimeoutError')), Math.max(1, ms));
  outer.addEventListener('abort', abort, { once: true });
  try {
    return await work(controller.signal);
  } finally {
    clearTimeout(timer);
    outer.removeEventListener('abort', abort);
  }
}

function sleep(ms: number) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
