import fs from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

/** An SMTP outage of up to about 2.5 minutes loses no mail. */
export const SMTP_RETRY_DELAYS_MS = [5_000, 30_000, 120_000];

export interface Mailer {
  send(mail: Mail): Promise<void>;
}

/**
 * SMTP through nodemailer when SMTP_URL is set. Otherwise every mail is written as JSON to
 * DATA_DIR/outbox (newest last by name) and announced in the log (its secrets redacted there, not in the file), so
 * the reset journey works on a fresh machine.
 */
export function createMailer(options: {
  smtpUrl?: string;
  from: string;
  outboxDir: string;
  log: (line: string) => void;
  /** Waits before each new attempt when the SMTP server fails; a mail is given up after the last. */
  retryDelaysMs?: number[];
}): Mailer {
  if (options.smtpUrl) {
    const transport = nodemailer.createTransport(options.smtpUrl);
    const delays = options.retryDelaysMs ?? SMTP_RETRY_DELAYS_MS;
    return {
      /**
       * Resolves once the mail is accepted. An SMTP outage (refused, timed out, a 4xx answer) is retried with
       * growing waits, so a reset link asked for during a short outage still arrives; the caller does not wait
       * for it (the api answers first, see POST /auth/users/forgot).
       */
      async send(mail) {
        for (let attempt = 0; ; attempt++) {
          try {
            await transport.sendMail({ from: options.from, ...mail });
            return;
          } catch (error) {
            if (attempt >= delays.length) throw error;
            options.log(`mail to ${mail.to} failed (${(error as Error).message}); trying again in ${delays[attempt] / 1000} s`);
            await new Promise((resolve) => setTimeout(resolve, delays[attempt]));
          }
        }
      },
    };
  }
  return {
    async send(mail) {
      await fs.mkdir(options.outboxDir, { recursive: true });
      const file = path.join(options.outboxDir, `${Date.now()}-${Math.random().toString(36).slice(2, 8)}.json`);
      await fs.writeFile(file, JSON.stringify({ from: options.from, ...mail, sentAt: new Date().toISOString() }, null, 2));
      options.log(`mail to ${mail.to} written to ${file}: ${mail.subject}\n${mail.text}`);
    },
  };
}

/** Reads the outbox, oldest first (used by tests and by operators without SMTP). */
export async function readOutbox(outboxDir: string): Promise<(Mail & { sentAt: string })[]> {
  let names: string[];
  try {
    names = (await fs.readdir(outboxDir)).filter((n) => n.endsWith('.json')).sort();
  } catch {
    return [];
  }
  return Promise.all(names.map(async (n) => JSON.parse(await fs.readFile(path.join(outboxDir, n), 'utf8'))));
}
