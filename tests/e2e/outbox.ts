import { expect } from '@playwright/test';
import fs from 'node:fs/promises';
import path from 'node:path';

interface OutboxMail {
  to: string;
  subject: string;
  text: string;
  sentAt: string;
}

/**
 * The password-reset link of the newest mail to `email` in the server's outbox (DATA_DIR/outbox, one JSON file a
 * mail, names sortable by time). The api writes the mail after it answers, so this waits for it to appear: the
 * mail queue's worker polls every 2 s and renders the mail, which on a busy machine has taken more than 10 s.
 */
export function resetLinkFromOutbox(email: string, after = 0): Promise<string> {
  return linkFromOutbox(email, /https?:\/\/\S+\/password\/reset\?token=\S+/, after, 'a password reset mail');
}

/** The first address matching `link` in the newest mail to `email` sent after `after` (waits for it, as above). */
export async function linkFromOutbox(email: string, link: RegExp, after = 0, what = 'a mail with a link'): Promise<string> {
  const dir = path.join(process.env.E2E_DATA_DIR ?? '', 'outbox');
  let found: string | undefined;
  await expect
    .poll(
      async () => {
        const names = (await fs.readdir(dir).catch(() => [] as string[]))
          .filter((n) => n.endsWith('.json'))
          .sort()
          .reverse();
        for (const name of names) {
          const mail = JSON.parse(await fs.readFile(path.join(dir, name), 'utf8')) as OutboxMail;
          if (mail.to !== email || Date.parse(mail.sentAt) < after) continue;
          found = link.exec(mail.text)?.[0];
          return Boolean(found);
        }
        return false;
      },
      { message: `${what} to ${email} in ${dir}`, timeout: 30_000 },
    )
    .toBe(true);
  return found!;
}
