import { Readable } from 'node:stream';

/**
 * How the web tier's api client (api.server.ts) reaches the api: one call in, one answer out. The server wires one
 * transport into Remix's load context (server/web.ts): in the one-process server the api in this process, answered
 * through Fastify's inject (server/index.ts, docs/decisions/005-in-process-api.md); with the tiers apart, HTTP.
 */
export interface ApiCall {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** The path and query string, e.g. /users/me?x=1. */
  url: string;
  headers: Record<string, string>;
  /** JSON text, or a stream (an upload, which is never held whole in memory). */
  body?: string | ReadableStream<Uint8Array>;
  signal: AbortSignal;
}

export interface ApiAnswer {
  status: number;
  text: string;
}

export type ApiTransport = (call: ApiCall) => Promise<ApiAnswer>;

/** The api over HTTP at `baseUrl` (SERVE=web, or API_URL pointing at another address). */
export function httpTransport(baseUrl: string): ApiTransport {
  return async ({ method, url, headers, body, signal }) => {
    const response = await fetch(new URL(url, baseUrl), {
      method,
      headers,
      body,
      signal,
      // A streamed body is sent as it is read (fetch's rule for a stream).
      ...(body instanceof ReadableStream ? { duplex: 'half' } : {}),
    } as RequestInit);
    return { status: response.status, text: await response.text() };
  };
}

/** The Node stream an in-process transport hands its server, for a call's streamed body. */
export function nodeStream(body: ReadableStream<Uint8Array>) {
  return Readable.fromWeb(body as import('node:stream/web').ReadableStream<Uint8Array>);
}
