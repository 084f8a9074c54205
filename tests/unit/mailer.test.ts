import net from 'node:net';
import os from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { createMailer } from '../../api/mail/mailer';

/** Just enough SMTP to accept mail, so the mailer talks to a real server over a real socket. */
function smtpServer(received: string[]) {
  return net.createServer((socket) => {
    let data = false;
    let body = '';
    socket.write('220 test ESMTP\r\n');
    socket.on('data', (chunk) => {
      for (const line of chunk.toString().split('\r\n').filter(Boolean)) {
        if (data) {
          if (line === '.') {
            data = false;
            received.push(body);
            socket.write('250 OK queued\r\n');
          } else body += `${line}\n`;
        } else if (/^(EHLO|HELO)/i.test(line)) socket.write('250 test\r\n');
        else if (/^DATA/i.test(line)) {
          data = true;
          socket.write('354 go ahead\r\n');
        } else if (/^QUIT/i.test(line)) socket.end('221 bye\r\n');
        else socket.write('250 OK\r\n');
      }
    });
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

describe('mail during an SMTP outage', () => {
  let server: net.Server | undefined;
  afterEach(() => server?.close());

  it('retries a mail the SMTP server refused, and delivers it once the server is back', async () => {
    const port = await freePort();
    const received: string[] = [];
    const log: string[] = [];
    const mailer = createMailer({
      smtpUrl: `smtp://127.0.0.1:${port}`,
      from: 'Stagedoor <no-reply@stagedoor.test>',
      outboxDir: os.tmpdir(),
      log: (line) => log.push(line),
      retryDelaysMs: [100, 300, 300],
    });
    // Nothing listens yet: the first attempt is refused.
    const sending = mailer.send({ to: 'fan@example.com', subject: 'Reset your password', text: 'Your link' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    server = smtpServer(received).listen(port, '127.0.0.1');
    await sending;
    expect(received).toHaveLength(1);
    expect(received[0]).toContain('Subject: Reset your password');
    expect(log[0]).toMatch(/mail to fan@example.com failed .*trying again in 0.1 s/);
  });

  it('gives up after the last retry, with the error', async () => {
    const port = await freePort();
    const mailer = createMailer({ smtpUrl: `smtp://127.0.0.1:${port}`, from: 'x@stagedoor.test', outboxDir: os.tmpdir(), log: () => {}, retryDelaysMs: [20] });
    await expect(mailer.send({ to: 'fan@example.com', subject: 's', text: 't' })).rejects.toThrow(/ECONNREFUSED/);
  });
});
