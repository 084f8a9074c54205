import { Negotiator } from '@fastify/accept-negotiator';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { LRUCache } from 'lru-cache';
import zlib from 'node:zlib';
import { z } from 'zod';

/**
 * Every answer is an envelope. Success: { status: 0, data }. Failure: { status: <http status>, message,
 * errors? } where errors maps a field name to its messages (our own design for error bodies).
 */
export type FieldErrors = Record<string, string[]>;

export class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly errors?: FieldErrors,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
}

export const badRequest = (message: string, errors?: FieldErrors) => new ApiError(400, message, errors);
export const unauthorized = (message = 'Token expired') => new ApiError(401, message);
export const forbidden = (message = 'Access forbidden') => new ApiError(403, message);
export const notFound = (message = 'Not found') => new ApiError(404, message);
export const unprocessable = (message: string, errors?: FieldErrors) => new ApiError(422, message, errors);

export function ok<T>(data: T) {
  return { status: 0 as const, data };
}

/**
 * The success envelope around data that is already JSON text (a hot list kept serialised in the read cache): the
 * same bytes as `ok(data)` serialised, encoded once. A cached body is sent as it is, with no serialising or
 * encoding on the read.
 */
export function okJsonBody(dataJson: string): Buffer {
  return Buffer.from(`{"status":0,"data":${dataJson}}`);
}

/** A kept body shorter than this is sent as it is: compressing it would save less than its headers weigh. */
export const COMPRESS_MIN_BYTES = 1024;
type Encoding = 'br' | 'gzip';
/** Clients send a handful of Accept-Encoding headers: each is read once (a bounded memo, as the header is theirs). */
const encodings = new Negotiator<Encoding>({ supportedValues: ['br', 'gzip'], cache: new LRUCache<string, string>({ max: 100 }) });
/** Each kept body's compressed forms, made on the first read that accepts them and gone with the body. */
const compressedBodies = new WeakMap<Buffer, Partial<Record<Encoding, Buffer>>>();

/**
 * Sends a kept body. A client that accepts brotli or gzip gets it compressed (a list of 17 posts: 21 KB, about 3 KB
 * in brotli); the compression is done once per kept body, not per read, so it costs a read nothing after the first.
 * The web tier's in-process calls ask for no encoding and get the bytes as they are.
 */
export function sendJsonBody(request: FastifyRequest, reply: FastifyReply, body: Buffer) {
  reply.type('application/json; charset=utf-8');
  const vary = reply.getHeader('vary');
  reply.header('vary', vary ? `${vary}, Accept-Encoding` : 'Accept-Encoding');
  const accepted = request.headers['accept-encoding'];
  const encoding = accepted && body.length >= COMPRESS_MIN_BYTES ? encodings.negotiate(accepted) : null;
  if (!encoding) return reply.send(body);
  let forms = compressedBodies.get(body);
  if (!forms) compressedBodies.set(body, (forms = {}));
  const compressed = (forms[encoding] ??= compress(body, encoding));
  return reply.header('content-encoding', encoding).send(compressed);
}

function compress(body: Buffer, encoding: Encoding) {
  if (encoding === 'gzip') return zlib.gzipSync(body);
  return zlib.brotliCompressSync(body, {
    params: {
      [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
      [zlib.constants.BROTLI_PARAM_QUALITY]: 5,
      [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
    },
  });
}

/**
 * Parses a body or query with a zod schema (classic, or zod/mini as the web's form schemas are); failure answers
 * 400 with each field's messages.
 */
export function parse<S extends z.core.$ZodType>(schema: S, input: unknown): z.output<S> {
  const result = z.safeParse(schema, input ?? {});
  if (result.success) return result.data;
  throw badRequest(result.error.issues[0]?.message ?? 'Invalid request', fieldErrors(result.error));
}

export function fieldErrors(error: z.core.$ZodError): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of error.issues) {
    const key = issue.path.length ? issue.path.join('.') : 'form';
    (errors[key] ??= []).push(issue.message);
  }
  return errors;
}

/** The one error handler: known errors keep their status, body-parser errors become 4xx, the rest is logged as 500. */
/** What a client gets while the database cannot be reached: a clear 503 it may retry, never a 500. */
export const DATABASE_UNAVAILABLE = {
  code: 'database_unavailable',
  message: "We can't reach our database right now. Please try again in a moment.",
} as const;

/**
 * Errors that mean the database is out of reach (refused, reset, timed out, shut down), not that a query was
 * wrong: node's socket errors, pg's pool and connection errors, and PostgreSQL's SQLSTATE class 08 and 57P0x.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (!error || typeof error !== 'object') return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code === 'string') {
    if (['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENOTFOUND'].includes(code)) return true;
    if (code.startsWith('08') || ['57P01', '57P02', '57P03'].includes(code)) return true;
  }
  return (
    typeof message === 'string' &&
    /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection closed|Query read timeout/i.test(
      message,
    )
  );
}

export function handleError(error: unknown, request: FastifyRequest, reply: FastifyReply) {
  if (error instanceof ApiError) {
    if (error.headers) reply.headers(error.headers);
    return reply.status(error.statusCode).send({ status: error.statusCode, message: error.message, errors: error.errors });
  }
  const status = (error as { statusCode?: number }).statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return reply.status(status).send({ status, message: (error as Error).message });
  }
  if (isDatabaseUnavailable(error)) {
    request.log.warn({ err: error }, 'database unavailable');
    return reply
      .status(503)
      .header('Retry-After', '5')
      .send({ status: 503, ...DATABASE_UNAVAILABLE });
  }
  request.log.error({ err: error }, 'unhandled error');
  return reply.status(500).send({ status: 500, message: 'Something went wrong on our side. Please try again later.' });
}

/**
 * True when a string anywhere in the value (a key included) holds a NUL character, which PostgreSQL text cannot hold:
 * what carries one is refused as a 400 before it reaches a query, where it would fail as a 500.
 */
export function holdsNul(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (!value || typeof value !== 'object' || depth > 20) return false;
  return Object.entries(value as Record<string, unknown>).some(([key, item]) => key.includes('\u0000') || holdsNul(item, depth + 1));
}
