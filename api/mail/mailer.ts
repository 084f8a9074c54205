import fs from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
}

/**
 * SMTP through nodemailer when SMTP_URL is set. Otherwise every mail is written as JSON to
 * DATA_DIR/outbox (newest last by name) and announced in the log, so the reset journey works on a fresh machine.
 */
export function createMailer(options: { smtpUrl?: string; from: string; outboxDir: string; log: (line: string) => void }): Mailer {
  if (options.smtpUrl) {
    const transport = nodemailer.createTransport(options.smtpUrl);
    return {
      async send(mail) {
        await transport.sendMail({ from: options.from, ...mail });
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
