import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../api/cli';
import { captureCli } from '../helpers/process';
import { openDb } from '../../api/db/client';
import { possessive } from '#contract/names';

/** The CLI's end-membership on the embedded database (no server running): the demo fan's membership ends today. */

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

describe('npm run cli -- end-membership', () => {
  it('ends a running membership today without a refund, once, and refuses bad input with one line', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stagedoor-end-'));
    dirs.push(dir);
    const env = { DATA_DIR: dir, LOG_LEVEL: 'silent' };
    const seeded = captureCli(env);
    expect(await runCli(['seed'], seeded.io), seeded.err.join('\n')).toBe(0);

    const db = await openDb({ dataDir: dir });
    const membership = async () => {
      const [row] = await db.query<{ username: string; status: string; autoRenew: boolean; expiresAt: Date; refunds: number }>(
        `SELECT a.username, s.status, s.auto_renew AS "autoRenew", s.expires_at AS "expiresAt",
                (SELECT count(*)::int FROM refunds) AS refunds
           FROM subscriptions s JOIN users a ON a.id = s.artist_id JOIN users f ON f.id = s.user_id
          WHERE f.email = 'fan@stagedoor.test' ORDER BY a.username LIMIT 1`,
      );
      return row;
    };
    const before = await membership();
    expect(before.status).toBe('active');
    // A membership Stripe renews, where Stripe is not configured: it cannot be cancelled there, so nothing ends.
    const [{ gateway, sub }] = await db.query<{ gateway: string; sub: string | null }>(
      `SELECT gateway, gateway_subscription_id AS sub FROM subscriptions s JOIN users a ON a.id = s.artist_id
        WHERE a.username = $1 AND s.user_id = (SELECT id FROM users WHERE email = 'fan@stagedoor.test')`,
      [before.username],
    );
    const setGateway = (db_: typeof db, g: string, s: string | null) =>
      db_.query(
        `UPDATE subscriptions SET gateway = $2, gateway_subscription_id = $3
          WHERE artist_id = (SELECT id FROM users WHERE username = $1) AND user_id = (SELECT id FROM users WHERE email = 'fan@stagedoor.test')`,
        [before.username, g, s],
      );
    await setGateway(db, 'stripe', 'sub_cli_renewing');
    await db.close();
    const refused = captureCli(env);
    expect(await runCli(['end-membership', '--artist', before.username, '--fan', 'fan@stagedoor.test'], refused.io)).toBe(1);
    expect(refused.err[0]).toMatch(/^error: This membership renews through Stripe, and Stripe is not configured here/);
    const db1 = await openDb({ dataDir: dir });
    expect(
      (await db1.query<{ status: string }>(`SELECT status FROM subscriptions WHERE gateway_subscription_id = 'sub_cli_renewing'`))[0]
        .status,
    ).toBe('active');
    await setGateway(db1, gateway, sub);
    await db1.close();

    const ended = captureCli(env);
    expect(
      await runCli(['end-membership', '--artist', before.username, '--fan', 'FAN@stagedoor.test'], ended.io),
      ended.err.join('\n'),
    ).toBe(0);
    const today = new Date().toISOString().slice(0, 10);
    expect(ended.out).toEqual([
      `Ended FAN@stagedoor.test’s membership of ${possessive(before.username)} fan club on ${today}, without a refund.`,
    ]);

    const db2 = await openDb({ dataDir: dir });
    const [after] = await db2.query<{ status: string; autoRenew: boolean; expiresAt: Date }>(
      `SELECT s.status, s.auto_renew AS "autoRenew", s.expires_at AS "expiresAt"
         FROM subscriptions s JOIN users a ON a.id = s.artist_id JOIN users f ON f.id = s.user_id
        WHERE f.email = 'fan@stagedoor.test' AND a.username = $1`,
      [before.username],
    );
    const [{ refunds }] = await db2.query<{ refunds: number }>('SELECT count(*)::int AS refunds FROM refunds');
    await db2.close();
    expect(after.status).toBe('expired');
    expect(after.autoRenew).toBe(false);
    expect(new Date(after.expiresAt).getTime()).toBeLessThanOrEqual(Date.now());
    expect(refunds).toBe(before.refunds);

    const again = captureCli(env);
    expect(await runCli(['end-membership', '--artist', before.username, '--fan', 'fan@stagedoor.test'], again.io)).toBe(1);
    expect(again.err).toEqual(['error: This fan has no running membership of this artist’s fan club.']);
    const missing = captureCli(env);
    expect(await runCli(['end-membership', '--artist', before.username], missing.io)).toBe(2);
    expect(missing.err[0]).toBe('error: --fan is required. Usage: npm run cli -- end-membership --artist U --fan EMAIL');
    const help = captureCli(env);
    expect(await runCli(['end-membership', '--help'], help.io)).toBe(0);
    expect(help.out[0]).toContain('without a refund');
  }, 120_000);
});
