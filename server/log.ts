import type { RequestHandler } from 'express';
import { pino, type Logger } from 'pino';
import type { Config } from '#contract/config';
import { redactSecrets } from '#contract/log-redaction';

export type WebLog = Logger;

/** Slower than this, a page is logged at info (as the api does its calls). */
export const SLOW_PAGE_MS = 1000;

/**
 * The web tier's log: JSON lines like the api's (pino), each redacted as it is written, with `tier: "web"` so the
 * two can be told apart in one stream.
 */
export function createWebLog(level: Config['logLevel'], out: { write(line: string): unknown } = process.stdout): WebLog {
  return pino({ level, base: { tier: 'web' } }, { write: (line: string) => out.write(redactSecrets(line)) });
}

/**
 * One line per page request, when its answer is sent (or the browser gave up on it): every page at debug; at info
 * the ones that failed (4xx and 5xx) or took over a second. Runs after the request id is chosen, so the line names
 * the id the api's lines and the jobs carry.
 */
export function pageLog(log: WebLog, slowMs = SLOW_PAGE_MS): RequestHandler {
  return (req, res, next) => {
    if (!log.isLevelEnabled('error')) return next();
    const started = performance.now();
    res.once('close', () => {
      const ms = Math.round(performance.now() - started);
      const statusCode = res.statusCode;
      const level = statusCode >= 500 ? 'error' : statusCode >= 400 || ms >= slowMs ? 'info' : 'debug';
      if (!log.isLevelEnabled(level)) return;
      const line = { requestId: res.locals.requestId, method: req.method, url: req.originalUrl, statusCode, ms };
      log[level](res.writableFinished ? line : { ...line, aborted: true }, statusCode >= 500 ? 'page failed' : 'page');
    });
    next();
  };
}
