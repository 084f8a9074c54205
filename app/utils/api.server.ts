import { LRUCache } from 'lru-cache';
import { apiDispatch, type ApiDispatch } from './api-dispatch.server';
import { env } from './env.server';

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

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  params?: Record<string, string | number | boolean | undefined | null | (string | number)[]>;
  body?: unknown;
  signal?: AbortSignal;
  /** Which statuses count as success; by default any status below 400 (spec §7). */
  validateStatus?: (status: number) => boolean;
  /** The stored credential; sent as Authorization: Bearer when present. */
  token?: string;
  /** Give up after this many milliseconds in all, retries included. */
  deadlineMs?: number;
  /** The first retry's delay, doubled for each next one (spec §9: from 1 s); tests shorten it. */
  backoffMs?: number;
  /** The browser's address, passed on so the API's per-address rate limits see the fan and not the web tier. */
  clientIp?: string;
  /** More request headers (e.g. Idempotency-Key on a payment). */
  headers?: Record<string, string>;
  /**
   * The caller only reads the answer. A successful answer identical to a recent one is then handed out as the same
   * object, parsed once and frozen, so a crowd reading one list pays for one parse (a content list: up to 21 KB).
   */
  shared?: boolean;
}

const RETRIES = 3;
const BACKOFF_START_MS = 1000;
const BACKOFF_CAP_MS = 30_000;
const RETRY_STATUSES = new Set([502, 503, 504]);

/**
 * The one request helper (spec §7) every loader and action uses to reach the API. Returns the parsed body.
 * Reads (GET) are retried on network errors and 502/503/504 with exponential backoff; writes never are.
 */
export async function apiRequest<T = unknown>(options: RequestOptions): Promise<T> {
  const { method = 'GET', validateStatus = (status) => status < 400, deadlineMs = 10_000, backoffMs = BACKOFF_START_MS } = options;
  const url = new URL(options.path.replace(/^\/?/, '/'), env().apiUrl);
  for (const [key, value] of Object.entries(options.params ?? {})) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) value.forEach((v) => url.searchParams.append(key, String(v)));
    else url.searchParams.set(key, String(value));
  }
  const headers: Record<string, string> = { ...options.headers, Accept: 'application/json' };
  if (options.token) headers.Authorization = `Bearer ${options.token}`;
  if (options.clientIp) headers['X-Forwarded-For'] = options.clientIp;
  let payload: string | undefined;
  if (options.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    payload = JSON.stringify(options.body);
  }

  const deadline = Date.now() + deadlineMs;
  const idempotent = method === 'GET';
  for (let attempt = 0; ; attempt++) {
    const delay = Math.min(backoffMs * 2 ** attempt, BACKOFF_CAP_MS);
    const mayRetry = idempotent && attempt < RETRIES && Date.now() + delay < deadline;
    let response: Answer;
    try {
      // Each attempt gets what is left of the one deadline, so retries never stretch the whole request past it.
      const left = Math.max(1, deadline - Date.now());
      const dispatch = apiDispatch();
      response = dispatch
        ? await dispatched(dispatch, { method, url: `${url.pathname}${url.search}`, headers, body: payload }, options.signal, left)
        : await fetch(url, { method, headers, body: payload, signal: withDeadline(options.signal, left) });
    } catch (error) {
      if (options.signal?.aborted || !mayRetry) throw error;
      await sleep(delay);
      continue;
    }
    // The api says its database is out of reach: retrying at once would only make the fan wait longer.
    if (response.status === 503 && idempotent) {
      const body = (await readBody(response)) as ApiErrorBody | undefined;
      if (body?.code === 'database_unavailable' || !mayRetry) throw serviceUnavailable(body);
      await sleep(delay);
      continue;
    }
    if (mayRetry && RETRY_STATUSES.has(response.status)) {
      await response.body?.cancel();
      await sleep(delay);
      continue;
    }
    const body = options.shared && response.status < 300 ? await readShared(response) : await readBody(response);
    if (!validateStatus(response.status)) throw new HttpError(response.status, body as ApiErrorBody | undefined);
    return body as T;
  }
}

/**
 * A read answered 503 becomes a 503 page (the route error boundary's generic page, with that status), not a 500:
 * the service is down for a moment, nothing is broken. A write answered 503 stays an HttpError, so the form that
 * sent it can say so in its own words (the log-in form's "technical difficulties", spec §8).
 */
function serviceUnavailable(body: ApiErrorBody | undefined) {
  return new Response(body?.message ?? 'Service unavailable', { status: 503, headers: { 'Retry-After': '5' } });
}

/** What the helper reads of an answer, over HTTP (a fetch Response) or from the api in this process. */
interface Answer {
  status: number;
  text(): Promise<string>;
  body: { cancel(): Promise<void> } | null;
}

/**
 * A call to the api in this process, given up when the page's request is aborted or the deadline passes. A plain
 * timer, cleared as soon as the answer comes, stands in for AbortSignal.timeout: a page makes several calls, and each
 * such signal lived (with its timer) for the whole deadline, several thousand at once under a crowd.
 */
function dispatched(dispatch: ApiDispatch, request: Parameters<ApiDispatch>[0], signal: AbortSignal | undefined, ms: number): Promise<Answer> {
  signal?.throwIfAborted();
  return new Promise((resolve, reject) => {
    const stop = (reason: unknown) => {
      settle();
      reject(reason);
    };
    const abort = () => stop(signal!.reason);
    const timer = setTimeout(() => stop(new DOMException('The api did not answer in time.', 'TimeoutError')), ms);
    const settle = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', abort);
    };
    signal?.addEventListener('abort', abort, { once: true });
    dispatch(request).then(
      (answer) => {
        settle();
        resolve({ status: answer.status, text: async () => answer.body, body: null });
      },
      stop,
    );
  });
}

async function readBody(response: Answer): Promise<unknown> {
  return parseBody(await response.text(), response.status);
}

function parseBody(text: string, status: number): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return { status, message: text.slice(0, 200) };
  }
}

/** Shared answers by their text, 4 MB of text in all, the least recently read forgotten first. */
const sharedAnswers = new LRUCache<string, object>({ maxSize: 4 * 2 ** 20, sizeCalculation: (_answer, text) => text.length });

async function readShared(response: Answer): Promise<unknown> {
  const text = await response.text();
  const known = sharedAnswers.get(text);
  if (known) return known;
  const body = parseBody(text, response.status);
  if (body && typeof body === 'object') sharedAnswers.set(text, deepFreeze(body));
  return body;
}

/** Frozen all the way down: a caller that changed a shared answer would change it for every later reader. */
function deepFreeze<T extends object>(value: T): T {
  for (const child of Object.values(value)) if (child && typeof child === 'object' && !Object.isFrozen(child)) deepFreeze(child);
  return Object.freeze(value);
}

function withDeadline(signal: AbortSignal | undefined, ms: number) {
  const timeout = AbortSignal.timeout(ms);
  return signal ? AbortSignal.any([signal, timeout]) : timeout;
}

function sleep(ms: number) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
