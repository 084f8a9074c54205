import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Socket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { MessageResponse } from '#contract/messages';
import { RealtimeEvent } from '#contract/realtime';
import { mapMessage, mergeMessages, type Message } from '../../app/utils/messages';
import * as webRealtime from '../../app/utils/realtime';
import { call, describeEachDatabase, startTestApi, TEST_DATABASE_URL, type TestApi, type TestUser } from '../helpers/api';
import { connectClient, connected, createFan, fanAndArtist, recordEvents, REDIS_URL, send } from './messages-fixtures';

const sockets: Socket[] = [];
const open = (base: string, user: TestUser) => {
  const socket = connectClient(base, user.token);
  sockets.push(socket);
  return socket;
};
afterEach(() => {
  for (const socket of sockets.splice(0)) socket.disconnect();
});

/**
 * What a conversation page keeps: the messages it shows, built from the first fetch, from events, and from a
 * refetch whenever a connection comes back without its missed events (app/utils/messages.ts mergeMessages).
 */
function conversationView(t: TestApi, user: TestUser, socket: Socket, conversationId: string) {
  let messages: Message[] = [];
  const refetch = async () => {
    const page = await call<{ data: MessageResponse[] }>(t.url, 'GET', `/messages/conversations/${conversationId}`, {
      token: user.token,
      query: { limit: 100, sort: 'desc' },
    });
    messages = mergeMessages(messages, page.body.data.data.map(mapMessage));
  };
  socket.on(RealtimeEvent.messageCreated, (event: { message: MessageResponse }) => {
    if (event.message.conversationId === conversationId) messages = mergeMessages(messages, [mapMessage(event.message)]);
  });
  socket.on('connect', () => {
    if (!socket.recovered) void refetch();
  });
  return {
    refetch,
    texts: () => messages.map((m) => m.text),
  };
}

// PGlite runs on socket.io's in-memory adapter; PostgreSQL, when REDIS_URL is set too, through Redis as in production.
describeEachDatabase('realtime', (database) => {
  const redisUrl = database.name === 'PostgreSQL' ? REDIS_URL : undefined;
  let t: TestApi;
  beforeAll(async () => {
    t = await startTestApi({ database: database.name, env: redisUrl ? { REDIS_URL: redisUrl } : {} });
  });
  afterAll(async () => {
    await t?.close();
  });

  it(`carries events ${redisUrl ? 'through the Redis streams adapter' : 'with the in-memory adapter'}`, () => {
    expect(t.api.io.of('/').adapter.constructor.name).toBe(redisUrl ? 'RedisStreamsAdapter' : 'SessionAwareAdapter');
  });

  it('a fan and an artist receive each other’s messages, with the conversation as each sees it', async () => {
    const { fan, artist, conversationId } = await fanAndArtist(t);
    const outsider = await createFan(t);
    const fanSocket = open(t.url, fan);
    const artistSocket = open(t.url, artist);
    const outsiderSocket = open(t.url, outsider);
    const fanEvents = recordEvents(fanSocket);
    const artistEvents = recordEvents(artistSocket);
    const outsiderEvents = recordEvents(outsiderSocket);
    await Promise.all([connected(fanSocket), connected(artistSocket), connected(outsiderSocket)]);
    // Every fresh connection is told its unread total, so a badge is right after a reconnect.
    expect(await artistEvents.waitFor(RealtimeEvent.unreadTotal)).toEqual({ total: 0 });

    const sent = await send(t, fan, conversationId, 'Are you playing Berlin?');
    const atArtist = await artistEvents.waitFor(RealtimeEvent.messageCreated);
    expect(atArtist.message).toEqual(sent.body.data);
    expect(atArtist.conversation).toMatchObject({
      _id: conversationId,
      lastMessage: 'Are you playing Berlin?',
      recipientInfo: { _id: fan.id, username: fan.username },
      totalNotSeenMessages: 1,
    });
    expect(await artistEvents.waitFor(RealtimeEvent.unreadTotal, (e) => e.total === 1)).toEqual({ total: 1 });
    // The sender's other tabs see it too, with the artist as recipient and nothing unread.
    const atFan = await fanEvents.waitFor(RealtimeEvent.messageCreated);
    expect(atFan.conversation).toMatchObject({ recipientInfo: { _id: artist.id }, totalNotSeenMessages: 0 });

    const answer = await send(t, artist, conversationId, 'In May!');
    const answered = await fanEvents.waitFor(RealtimeEvent.messageCreated, (e) => e.message._id === answer.body.data._id);
    expect(answered.message.text).toBe('In May!');
    expect(answered.message.senderInfo._id).toBe(artist.id);

    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(outsiderEvents.named(RealtimeEvent.messageCreated)).toEqual([]);
  });

  it('pushes read receipts, deletions and unread totals to the members', async () => {
    const { fan, artist, conversationId } = await fanAndArtist(t);
    const fanSocket = open(t.url, fan);
    const artistSocket = open(t.url, artist);
    const fanEvents = recordEvents(fanSocket);
    const artistEvents = recordEvents(artistSocket);
    await Promise.all([connected(fanSocket), connected(artistSocket)]);

    const first = await send(t, fan, conversationId, 'first');
    const second = await send(t, fan, conversationId, 'second');
    await artistEvents.waitFor(RealtimeEvent.unreadTotal, (e) => e.total === 2);

    await call(t.url, 'DELETE', `/messages/${second.body.data._id}`, { token: fan.token });
    const deleted = { _id: second.body.data._id, conversationId };
    expect(await artistEvents.waitFor(RealtimeEvent.messageDeleted)).toMatchObject({
      ...deleted,
      conversation: { lastMessage: 'first', totalNotSeenMessages: 1 },
    });
    expect(await fanEvents.waitFor(RealtimeEvent.messageDeleted)).toMatchObject(deleted);
    await artistEvents.waitFor(RealtimeEvent.unreadTotal, (e) => e.total === 1);

    const read = await call(t.url, 'POST', `/messages/read-all/${conversationId}`, { token: artist.token });
    const receipt = { conversationId, readerId: artist.id, readAt: read.body.data.readAt };
    expect(await fanEvents.waitFor(RealtimeEvent.conversationRead)).toEqual(receipt);
    expect(await artistEvents.waitFor(RealtimeEvent.conversationRead)).toEqual(receipt);
    await artistEvents.waitFor(RealtimeEvent.unreadTotal, (e) => e.total === 0);
    expect(first.status).toBe(200);

    // Reading again with nothing new tells nobody anything.
    await call(t.url, 'POST', `/messages/read-all/${conversationId}`, { token: artist.token });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(fanEvents.named(RealtimeEvent.conversationRead)).toHaveLength(1);
  });

  it('a client whose connection drops gets the messages it missed exactly once, and sends auth/login on reconnect', async () => {
    const { fan, artist, conversationId } = await fanAndArtist(t);
    const logins: string[] = [];
    t.api.io.on('connection', (serverSocket) => {
      serverSocket.on(RealtimeEvent.login, (token: string) => logins.push(token));
    });
    const artistSocket = open(t.url, artist);
    const events = recordEvents(artistSocket);
    const view = conversationView(t, artist, artistSocket, conversationId);
    await connected(artistSocket);
    await send(t, fan, conversationId, 'before the tunnel');
    await events.waitFor(RealtimeEvent.messageCreated);

    // The phone goes into a tunnel: the transport dies without a goodbye.
    const reconnected = new Promise<void>((resolve) => artistSocket.io.once('reconnect', () => resolve()));
    artistSocket.io.engine.close();
    expect(artistSocket.connected).toBe(false);
    await send(t, fan, conversationId, 'in the tunnel 1');
    await send(t, fan, conversationId, 'in the tunnel 2');
    await reconnected;

    await events.waitFor(RealtimeEvent.messageCreated, (e) => e.message.text === 'in the tunnel 2');
    expect(artistSocket.recovered).toBe(true);
    await send(t, fan, conversationId, 'out of the tunnel');
    await events.waitFor(RealtimeEvent.messageCreated, (e) => e.message.text === 'out of the tunnel');
    await view.refetch();

    const received = events.named(RealtimeEvent.messageCreated).map((e) => e.message.text);
    expect(received).toEqual(['before the tunnel', 'in the tunnel 1', 'in the tunnel 2', 'out of the tunnel']);
    expect(view.texts()).toEqual(['out of the tunnel', 'in the tunnel 2', 'in the tunnel 1', 'before the tunnel']);
    expect(logins).toEqual([artist.token]);
  });

  it('a client that comes back without its session refetches, and shows each message once', async () => {
    const { fan, artist, conversationId } = await fanAndArtist(t);
    const artistSocket = open(t.url, artist);
    const events = recordEvents(artistSocket);
    const view = conversationView(t, artist, artistSocket, conversationId);
    await connected(artistSocket);
    await send(t, fan, conversationId, 'one');
    await events.waitFor(RealtimeEvent.messageCreated);

    // A closed connection (page hidden, app killed) leaves no session to recover: the client refetches instead.
    artistSocket.disconnect();
    await send(t, fan, conversationId, 'two');
    await send(t, fan, conversationId, 'three');
    artistSocket.connect();
    await connected(artistSocket);
    expect(artistSocket.recovered).toBe(false);
    await send(t, fan, conversationId, 'four');
    await events.waitFor(RealtimeEvent.messageCreated, (e) => e.message.text === 'four');
    await view.refetch();

    expect(events.named(RealtimeEvent.messageCreated).map((e) => e.message.text)).toEqual(['one', 'four']);
    expect(view.texts()).toEqual(['four', 'three', 'two', 'one']);
  });

  // The web's own client (app/utils/realtime.ts), not the tests' stand-in: its options and its auth/login.
  it.runIf(database.name === 'PGlite')(
    'the web client reconnects without limit from 1 s to 10 s and sends auth/login after a reconnect',
    async () => {
      const { artist } = await fanAndArtist(t);
      const logins: string[] = [];
      t.api.io.on('connection', (serverSocket) => {
        serverSocket.on(RealtimeEvent.login, (token: string) => logins.push(token));
      });
      const page = globalThis as unknown as { window?: unknown; document?: unknown };
      const html = { dataset: {} as Record<string, string> };
      page.window = { ENV: { PUBLIC_API_URL: t.url }, addEventListener: () => undefined, removeEventListener: () => undefined };
      page.document = { documentElement: html };
      try {
        const socket = (await webRealtime.connect(artist.token))!;
        expect(socket.io.opts.transports).toEqual(['websocket', 'polling']);
        expect(socket.io.opts.query).toEqual({ token: artist.token });
        expect([socket.io.reconnectionAttempts(), socket.io.reconnectionDelay(), socket.io.reconnectionDelayMax()]).toEqual([
          Infinity,
          1000,
          10_000,
        ]);
        await connected(socket);
        expect(html.dataset.realtime).toBe('connected');
        expect(logins).toEqual([]);

        const reconnected = new Promise<void>((resolve) => socket.io.once('reconnect', () => resolve()));
        socket.io.engine.close();
        await reconnected;
        await expect.poll(() => logins).toEqual([artist.token]);
        expect(html.dataset.realtime).toBe('connected');

        // Entering the unauthenticated area: the connection and its state are gone.
        webRealtime.disconnect();
        expect(socket.connected).toBe(false);
        expect(webRealtime.getSocket()).toBeNull();
        expect(html.dataset.realtime).toBeUndefined();
      } finally {
        webRealtime.disconnect();
        delete page.window;
        delete page.document;
      }
    },
  );

  it('a revoked session is refused on auth/login and disconnected', async () => {
    const { artist } = await fanAndArtist(t);
    const socket = open(t.url, artist);
    await connected(socket);
    const ack = await socket.emitWithAck(RealtimeEvent.login, artist.token);
    expect(ack).toEqual({ ok: true });
    await call(t.url, 'POST', '/auth/logout', { token: artist.token });
    const closed = new Promise<string>((resolve) => socket.once('disconnect', (reason) => resolve(reason)));
    socket.emit(RealtimeEvent.login, artist.token);
    expect(await closed).toBe('io server disconnect');
  });
});

const twoNodesSkip = !TEST_DATABASE_URL
  ? 'needs TEST_DATABASE_URL (two api processes share one PostgreSQL database)'
  : !REDIS_URL
    ? 'needs REDIS_URL (the api processes share events through Redis)'
    : undefined;

describe.skipIf(twoNodesSkip !== undefined)(`two api processes sharing Redis${twoNodesSkip ? ` — skipped: ${twoNodesSkip}` : ''}`, () => {
  let first: TestApi;
  let second: { url: string; child: ChildProcess; dataDir: string };

  beforeAll(async () => {
    first = await startTestApi({ database: 'PostgreSQL', env: { REDIS_URL: REDIS_URL! } });
    const [{ schema }] = await first.db.query<{ schema: string }>('SELECT current_schema() AS schema');
    second = await startApiProcess(schema);
  });
  afterAll(async () => {
    // The second api is a child process: stop it, or it outlives the test run holding its port and database.
    if (second?.child.exitCode === null) {
      const exited = new Promise((resolve) => second.child.once('exit', resolve));
      second.child.kill('SIGTERM');
      await exited;
    }
    if (second) fs.rmSync(second.dataDir, { recursive: true, force: true });
    await first?.close();
  });
  it('delivers a message sent through one process to a client connected to the other, both ways', async () => {
    const { fan, artist, conversationId } = await fanAndArtist(first);
    const fanSocket = open(first.url, fan);
    const artistSocket = open(second.url, artist);
    const fanEvents = recordEvents(fanSocket);
    const artistEvents = recordEvents(artistSocket);
    await Promise.all([connected(fanSocket), connected(artistSocket)]);

    const sent = await send(first, fan, conversationId, 'through the first');
    expect((await artistEvents.waitFor(RealtimeEvent.messageCreated)).message).toEqual(sent.body.data);

    const answer = await call(second.url, 'POST', `/messages/conversations/${conversationId}`, {
      token: artist.token,
      body: { text: 'through the second', fileIds: [], type: 'text' },
    });
    expect(answer.status).toBe(200);
    const atFan = await fanEvents.waitFor(RealtimeEvent.messageCreated, (e) => e.message._id === answer.body.data._id);
    expect(atFan.message.text).toBe('through the second');
  });

  it('a client of the second process that drops recovers what was sent through the first, once', async () => {
    const { fan, artist, conversationId } = await fanAndArtist(first);
    const artistSocket = open(second.url, artist);
    const events = recordEvents(artistSocket);
    await connected(artistSocket);
    // The first event (the unread total every fresh connection gets) gives the client its recovery offset.
    await events.waitFor(RealtimeEvent.unreadTotal);
    const reconnected = new Promise<void>((resolve) => artistSocket.io.once('reconnect', () => resolve()));
    artistSocket.io.engine.close();
    await send(first, fan, conversationId, 'while away');
    await reconnected;
    await events.waitFor(RealtimeEvent.messageCreated, (e) => e.message.text === 'while away');
    expect(artistSocket.recovered).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(events.named(RealtimeEvent.messageCreated)).toHaveLength(1);
  });
});

/** A second api as its own process (the production entry, SERVE=api) on the same database schema and Redis. */
async function startApiProcess(schema: string) {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'stagedoor-node2-'));
  const databaseUrl = new URL(TEST_DATABASE_URL!);
  databaseUrl.searchParams.set('options', `-c search_path=${schema}`);
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/index.ts'], {
    cwd: path.resolve(__dirname, '../..'),
    env: {
      ...process.env,
      SERVE: 'api',
      API_PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: databaseUrl.toString(),
      REDIS_URL,
      DATA_DIR: dataDir,
      SEED_DEMO: 'false',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the second api exited:\n${output}`);
    const healthy = await fetch(`${url}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (healthy) break;
    if (Date.now() > deadline) throw new Error(`the second api did not start:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return { url, child, dataDir };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}
