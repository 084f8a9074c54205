import { execFileSync } from 'node:child_process';
import { createECDH, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import { decrypt } from 'http_ece';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import type { Server } from 'node:net';

/**
 * What the notification tests run for real beside the api: an SMTP server (the `smtp-server` package) that keeps
 * every mail it accepts, and a web push endpoint standing in for a browser's push service, which decrypts each
 * push (aes128gcm) with the keys of the subscription it made, as the browser would.
 */

function listen(server: Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port)));
}

export interface ReceivedMail {
  to: string;
  raw: string;
  parsed: ParsedMail;
  /** A header's line as sent, e.g. "List-Unsubscribe-Post: List-Unsubscribe=One-Click". */
  header(name: string): string | undefined;
}

export interface TestSmtp {
  url: string;
  mails: ReceivedMail[];
  to(address: string): ReceivedMail[];
  waitFor(address: string, count?: number, timeoutMs?: number): Promise<ReceivedMail[]>;
  /**
   * Once `count` mails that `match` have been accepted (at once, however fast they come), the server takes each mail
   * but never answers it (as if stuck) until release().
   */
  holdAfter(count: number, match: (mail: ReceivedMail) => boolean): void;
  /** Mails taken but not answered while held. */
  held(): number;
  /** Answers the held mails with an error, and takes mail normally again. */
  release(): void;
  close(): Promise<void>;
}

export async function startSmtp(): Promise<TestSmtp> {
  const mails: ReceivedMail[] = [];
  let holding = false;
  let holdRule: { count: number; match: (mail: ReceivedMail) => boolean } | undefined;
  const waiting: ((error?: Error) => void)[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', async () => {
        if (holding) {
          // Not answered: to the sender the mail is not delivered (RFC 5321 §4.1.1.4).
          waiting.push(callback);
          return;
        }
        const raw = Buffer.concat(chunks).toString();
        const parsed = await simpleParser(raw);
        for (const rcpt of session.envelope.rcptTo) {
          mails.push({
            to: rcpt.address,
            raw,
            parsed,
            // Unfolded: a long header is sent over several lines (RFC 5322 §2.2.3).
            header: (name) => parsed.headerLines.find((line) => line.key === name.toLowerCase())?.line.replace(/\r?\n[ \t]+/g, ' '),
          });
        }
        if (holdRule && mails.filter(holdRule.match).length >= holdRule.count) {
          holding = true;
          holdRule = undefined;
        }
        callback();
      });
    },
  });
  server.on('error', () => {});
  const port = await listen(server.server);
  const to = (address: string) => mails.filter((mail) => mail.to === address);
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    to,
    async waitFor(address, count = 1, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      while (to(address).length < count) {
        if (Date.now() > deadline) throw new Error(`${to(address).length} of ${count} mails to ${address} within ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      return to(address);
    },
    holdAfter: (count, match) => (holdRule = { count, match }),
    held: () => waiting.length,
    release() {
      holding = false;
      for (const callback of waiting.splice(0)) callback(new Error('451 try again later'));
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

export interface ReceivedPush {
  endpoint: string;
  /** The decrypted payload, parsed. */
  payload: { title: string; body: string; url: string; icon: string | null; tag: string };
  authorization: string;
  ttl: string | undefined;
}

export interface TestPushService {
  origin: string;
  pushes: ReceivedPush[];
  /**
   * A new browser subscription (PushSubscription.toJSON()); its pushes are decrypted with its private keys. `gone`:
   * every push is answered 410; `failFirst`: that many pushes are answered 500 first (a push service in trouble).
   */
  subscription(options?: { gone?: boolean; failFirst?: number }): { endpoint: string; keys: { p256dh: string; auth: string } };
  /** Pushes answered 500, by endpoint. */
  failed: string[];
  waitFor(endpoint: string, count?: number, timeoutMs?: number): Promise<ReceivedPush[]>;
  close(): Promise<void>;
}

/**
 * The push service, on HTTPS as web-push requires: a certificate made for this run, trusted by this test process
 * alone (the api in the tests sends through node's global agent).
 */
export async function startPushService(): Promise<TestPushService> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stagedoor-push-'));
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
      '-keyout',
      path.join(dir, 'key.pem'),
      '-out',
      path.join(dir, 'cert.pem'),
    ],
    { stdio: 'ignore' },
  );
  const cert = fs.readFileSync(path.join(dir, 'cert.pem'));
  const key = fs.readFileSync(path.join(dir, 'key.pem'));
  fs.rmSync(dir, { recursive: true, force: true });
  https.globalAgent.options.ca = [cert];

  const receivers = new Map<string, { ecdh: ReturnType<typeof createECDH>; auth: Buffer; gone: boolean; failFirst: number }>();
  const pushes: ReceivedPush[] = [];
  const failed: string[] = [];
  const server = https.createServer({ cert, key }, (request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const id = request.url!.split('/').pop()!;
      const receiver = receivers.get(id);
      if (!receiver || receiver.gone) {
        response.writeHead(410).end();
        return;
      }
      if (receiver.failFirst > 0) {
        receiver.failFirst -= 1;
        failed.push(`${origin}/push/${id}`);
        response.writeHead(500).end();
        return;
      }
      const plain = decrypt(Buffer.concat(chunks), { version: 'aes128gcm', privateKey: receiver.ecdh, authSecret: receiver.auth });
      pushes.push({
        endpoint: `${origin}/push/${id}`,
        payload: JSON.parse(plain.toString()),
        authorization: String(request.headers.authorization),
        ttl: request.headers.ttl as string | undefined,
      });
      response.writeHead(201).end();
    });
  });
  const port = await listen(server);
  const origin = `https://127.0.0.1:${port}`;
  return {
    origin,
    pushes,
    failed,
    subscription({ gone = false, failFirst = 0 } = {}) {
      const ecdh = createECDH('prime256v1');
      ecdh.generateKeys();
      const auth = randomBytes(16);
      const id = randomBytes(8).toString('hex');
      receivers.set(id, { ecdh, auth, gone, failFirst });
      return {
        endpoint: `${origin}/push/${id}`,
        keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: auth.toString('base64url') },
      };
    },
    async waitFor(endpoint, count = 1, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      const mine = () => pushes.filter((push) => push.endpoint === endpoint);
      while (mine().length < count) {
        if (Date.now() > deadline) throw new Error(`${mine().length} of ${count} pushes to ${endpoint} within ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      return mine();
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
