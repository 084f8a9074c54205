import { describe, expect, it } from 'vitest';
import { REDACTED } from '#contract/log-redaction';
import { redactConsole } from '../../server/console-redaction';

/** The web tier logs through the console (Remix's and express's errors, the server's own lines): redacted too. */
describe('redactConsole', () => {
  it('redacts every console line, whatever its arguments', () => {
    const written: string[] = [];
    const sink = (...args: unknown[]) => void written.push(args.join(' '));
    const target = { log: sink, info: sink, warn: sink, error: sink, debug: sink };
    redactConsole(target);
    target.error('loader failed for %s', '/password/reset?token=abc123&artist=nova');
    target.warn(new Error('request to /media/1?sig=xyz failed with Authorization: Bearer t0k3n'));
    target.log({ headers: { cookie: 'stagedoor=s3ss10n' } });
    const out = written.join('\n');
    for (const secret of ['abc123', 'xyz', 't0k3n', 's3ss10n']) expect(out).not.toContain(secret);
    expect(written[0]).toBe(`loader failed for /password/reset?token=${REDACTED}&artist=nova`);
    expect(written[1]).toContain('Error: request to /media/1?sig=');
  });
});
