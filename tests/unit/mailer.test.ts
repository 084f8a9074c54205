import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { afterEach, describe, expect, it } from 'vitest';
import { createMailer, readOutbox } from '../../api/mail/mailer';

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

const MAIL = {
  to: 'fan@example.com',
  subject: 'New post',
  text: 'Hello in text',
  html: '<p>Hello in <b>HTML</b></p>',
  headers: { 'List-Unsubscribe': '<https://api.example/unsubscribe?token=t>', 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
  messageId: '<job-1@stagedoor.mail>',
};

describe('the mailer', () => {
  let server: SMTPServer | undefined;
  afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

  it('sends both parts and the extra headers over SMTP', async () => {
    const port = await freePort();
    const received: Buffer[] = [];
    server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, _session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          received.push(Buffer.concat(chunks));
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => server!.listen(port, '127.0.0.1', resolve));
    const mailer = createMailer({
      smtpUrl: `smtp://127.0.0.1:${port}`,
      from: 'Stagedoor <no-reply@stagedoor.test>',
      outboxDir: os.tmpdir(),
      log: () => {},
    });
    await mailer.send(MAIL);
    mailer.close();
    const parsed = await simpleParser(received[0]);
    expect(parsed.subject).toBe('New post');
    expect(parsed.messageId).toBe('<job-1@stagedoor.mail>');
    expect(parsed.text?.trim()).toBe('Hello in text');
    expect(parsed.html).toContain('<b>HTML</b>');
    const header = (name: string) => parsed.headerLines.find((line) => line.key === name)?.line;
    expect(header('list-unsubscribe')).toBe('List-Unsubscribe: <https://api.example/unsubscribe?token=t>');
    expect(header('list-unsubscribe-post')).toBe('List-Unsubscribe-Post: List-Unsubscribe=One-Click');
  });

  it('rejects a mail the SMTP server cannot take, so the job queue retries it', async () => {
    const port = await freePort();
    const mailer = createMailer({ smtpUrl: `smtp://127.0.0.1:${port}`, from: 'x@stagedoor.test', outboxDir: os.tmpdir(), log: () => {} });
    await expect(mailer.send(MAIL)).rejects.toThrow(/ECONNREFUSED/);
    mailer.close();
  });

  it('without SMTP, writes the whole mail (headers, text and HTML) to the outbox', async () => {
    const outboxDir = fs.mkdtempSync(path.join(os.tmpdir(), 'stagedoor-outbox-'));
    const mailer = createMailer({ from: 'Stagedoor <no-reply@stagedoor.test>', outboxDir, log: () => {} });
    await mailer.send(MAIL);
    const [mail] = await readOutbox(outboxDir);
    expect(mail).toMatchObject({ ...MAIL, from: 'Stagedoor <no-reply@stagedoor.test>' });
    fs.rmSync(outboxDir, { recursive: true, force: true });
  });
});
