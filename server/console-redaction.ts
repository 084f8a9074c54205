import { formatWithOptions } from 'node:util';
import { redactSecrets } from '#contract/log-redaction';

type Sink = (...args: unknown[]) => void;
type ConsoleLike = Record<'log' | 'info' | 'warn' | 'error' | 'debug', Sink>;

/**
 * The web tier writes its log through the console (its own lines, and the errors Remix and express report), so the
 * console is where its lines are redacted: each call is formatted as Node would format it, then redacted.
 */
export function redactConsole(target: ConsoleLike = console) {
  for (const level of ['log', 'info', 'warn', 'error', 'debug'] as const) {
    const write = target[level].bind(target);
    target[level] = (...args: unknown[]) => write(redactSecrets(formatWithOptions({ colors: false }, ...args)));
  }
}
