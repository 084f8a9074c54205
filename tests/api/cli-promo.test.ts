import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../api/cli';
import { captureCli } from '../helpers/process';
import { openDb } from '../../api/db/client';
import { uniqueName } from '../helpers/api';

/** The CLI's create-promo on the embedded database (no server running): what it creates and what it refuses. */

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

describe('npm run cli -- create-promo', () => {
  it('creates a percent or amount code for an artist, and refuses bad input with one line', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stagedoor-promo-'));
    dirs.push(dir);
    const env = { DATA_DIR: dir, LOG_LEVEL: 'silent', PUBLIC_WEB_URL: 'http://web.test' };
    const artist = uniqueName('promoartist');
    const created = captureCli(env);
    const args = [
      'create-artist',
      '--username',
      artist,
      '--email',
      `${artist}@example.com`,
      '--password',
      'Encore-Encore-1!',
      '--name',
      'Promo Artist',
      '--yearly-price',
      '40',
    ];
    expect(await runCli(args, created.io), created.err.join('\n')).toBe(0);

    const percent = captureCli(env);
    expect(
      await runCli(['create-promo', '--artist', artist, '--code', 'SUMMER26', '--percent-off', '20', '--max-redemptions', '5'], percent.io),
    ).toBe(0);
    expect(percent.out[0]).toBe(`Created promo code SUMMER26 for ${artist}: 20% off the first year, for 5 payments.`);
    expect(percent.out[1]).toBe(`Share it as: http://web.test/${artist}/subscribe?promo=SUMMER26`);

    const amount = captureCli(env);
    expect(
      await runCli(['create-promo', '--artist', artist, '--code', 'FIVE', '--amount-off', '5', '--expires-at', '2030-01-31'], amount.io),
    ).toBe(0);
    expect(amount.out[0]).toContain('$5.00 off the first year, until 2030-01-31T00:00:00.000Z');

    const both = captureCli(env);
    expect(await runCli(['create-promo', '--artist', artist, '--code', 'BOTH', '--amount-off', '5', '--percent-off', '5'], both.io)).toBe(
      2,
    );
    expect(both.err[0]).toBe('error: --percent-off: Give either a percent off (1 to 100) or an amount off, not both.');
    const tooMuch = captureCli(env);
    expect(await runCli(['create-promo', '--artist', artist, '--code', 'MORE', '--percent-off', '150'], tooMuch.io)).toBe(2);
    expect(tooMuch.err[0]).toBe('error: --percent-off: The percent off must be from 1 to 100.');
    // A code must fit the $40 price: no more off than the price, and never a few cents left to pay.
    const overPrice = captureCli(env);
    expect(await runCli(['create-promo', '--artist', artist, '--code', 'OVER', '--amount-off', '41'], overPrice.io)).toBe(1);
    expect(overPrice.err[0]).toBe('error: --amount-off: The amount off cannot be more than the yearly price ($40.00).');
    const cents = captureCli(env);
    expect(await runCli(['create-promo', '--artist', artist, '--code', 'CENTS', '--amount-off', '39.90'], cents.io)).toBe(1);
    expect(cents.err[0]).toBe(
      'error: --amount-off: That would leave less than $0.50 to pay, the smallest card payment: take the whole price off (a free first year) or leave at least $0.50.',
    );
    const again = captureCli(env);
    expect(await runCli(['create-promo', '--artist', artist, '--code', 'summer26', '--percent-off', '10'], again.io)).toBe(1);
    expect(again.err[0]).toBe(`error: ${artist} already has the promo code "summer26".`);
    const nobody = captureCli(env);
    expect(await runCli(['create-promo', '--artist', 'nosuchartist', '--code', 'X123', '--percent-off', '10'], nobody.io)).toBe(1);
    expect(nobody.err[0]).toBe('error: There is no artist with the username "nosuchartist".');

    const db = await openDb({ dataDir: dir });
    try {
      const rows = await db.query<{
        code: string;
        percent_off: number | null;
        amount_off_cents: number | null;
        max_redemptions: number | null;
      }>('SELECT code, percent_off, amount_off_cents, max_redemptions FROM promo_codes ORDER BY code');
      expect(rows).toEqual([
        { code: 'FIVE', percent_off: null, amount_off_cents: 500, max_redemptions: null },
        { code: 'SUMMER26', percent_off: 20, amount_off_cents: null, max_redemptions: 5 },
      ]);
    } finally {
      await db.close();
    }
  });
});
