import fs from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** Headers beyond the usual ones: List-Unsubscribe and List-Unsubscribe-Post on notification mail. */
  headers?: Record<string, string>;
  /**
   * The same Message-ID every time this mail is sent: a mail sent again after a crash (between the SMTP server's
   * answer and our record of it) is recognisably the one already delivered.
   */
  messageId?: string;
}

export interface Mailer {
  /** Resolves once the mail is accepted; rejects when it is not (the job queue retries it with backoff). */
  send(mail: Mail): Promise<void>;
  close(): void;
}

/**
 * SMTP connections kept open and shared by the mails sent at once (a new post's fan-out sends thousands). A mail
 * on an open connection costs two round trips (nodemailer pipelines the envelope with DATA when the server offers
 * PIPELINING), and on a busy api node each round trip waits for the event loop: the connections, not the CPU, set
 * how fast a fan-out goes: 32 are the lanes of the two fan-out batches an api node runs at once
 * (api/notifications/fanout.ts). A provider that allows fewer can be told so in SMTP_URL (`?maxConnections=4`),
 * which nodemailer reads over these defaults.
 */
const SMTP_CONNECTIONS = 32;

/**
 * SMTP through nodemailer when SMTP_URL is set. Otherwise every mail is written whole (headers, text and HTML) as
 * JSON to DATA_DIR/outbox (newest last by name) and its subject logged, so every journey works on a fresh machine.
 * No retries here: each mail is a job, and the job queue retries a mail the SMTP server did not accept.
 */
export function createMailer(options: { smtpUrl?: string; from: string; outboxDir: string; log: (line: string) => void }): Mailer {
  if (options.smtpUrl) {
    const transport = nodemailer.createTransport({ url: options.smtpUrl, pool: true, maxConnections: SMTP_CONNECTIONS } as never);
    return {
      async send(mail) {
        await transport.sendMail({ from: options.from, ...mail });
      },
      close: () => transport.close(),
    };
  }
  return {
    async send(mail) {
      await fs.mkdir(options.outboxDir, { recursive: true });
      const file = path.join(options.outboxDir, `${Date.now()}-${Math.random().toString(36).slice(2, 8)}.json`);
      await fs.writeFile(file, JSON.stringify({ from: options.from, ...mail, sentAt: new Date().toISOString() }, null, 2));
      options.log(`mail to ${mail.to} written to ${file}: ${mail.subject}`);
    },
    close() {},
  };
}

/** Reads the outbox, oldest first (used by tests and by operators without SMTP). */
export async function readOutbox(outboxDir: string): Promise<(Mail & { from: string; sentAt: string })[]> {
  let names: string[];
  try {
    names = (await fs.readdir(outboxDir)).filter((n) => n.endsWith('.json')).sort();
  } catch {
    return [];
  }
  return Promise.all(names.map(async (n) => JSON.parse(await fs.readFile(path.join(outboxDir, n), 'utf8'))));
}
