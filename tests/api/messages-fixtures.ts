import { io as connectSocket, type Socket } from 'socket.io-client';
import { call, makeArtist, registerFan, subscribe, type TestApi, type TestUser } from '../helpers/api';

/**
 * Messaging fixtures on top of the shared api helper (tests/helpers/api.ts): members with their display name,
 * an opened conversation, sending, and realtime clients configured as the web's (app/utils/realtime.ts).
 */

export const REDIS_URL = process.env.REDIS_URL || undefined;

export type Member = TestUser & { name: string };

/** A fan registered through the api (their name is their username, as registration sets it). */
export async function createFan(t: TestApi): Promise<Member> {
  const fan = await registerFan(t);
  return { ...fan, name: fan.username };
}

/** An artist: a registered user with the artist flag, a display name and a profile. */
export async function createArtist(t: TestApi): Promise<Member> {
  const user = await registerFan(t, 'artist');
  const name = `The ${user.username}`;
  await makeArtist(t, user, { name });
  return { ...user, name };
}

/** The fan's subscription runs out (the fan keeps the conversation, read-only). */
export async function lapse(t: TestApi, fan: TestUser, artist: TestUser) {
  await t.db.query(`UPDATE subscriptions SET expires_at = now() - interval '1 day' WHERE user_id = $1 AND artist_id = $2`, [
    fan.id,
    artist.id,
  ]);
}

/** A subscribed fan, an artist, and their conversation opened by the fan. */
export async function fanAndArtist(t: TestApi) {
  const [fan, artist] = await Promise.all([createFan(t), createArtist(t)]);
  await subscribe(t, fan.id, artist.id);
  const opened = await call(t.url, 'POST', '/conversations', { token: fan.token, body: { source: 'performer', sourceId: artist.id } });
  if (opened.status !== 200) throw new Error(`open failed: ${JSON.stringify(opened.body)}`);
  return { fan, artist, conversationId: opened.body.data._id as string };
}

export function send(t: TestApi, user: TestUser, conversationId: string, text: string, clientId?: string) {
  return call(t.url, 'POST', `/messages/conversations/${conversationId}`, {
    token: user.token,
    body: { text, fileIds: [], type: 'text', ...(clientId ? { clientId } : {}) },
  });
}

/**
 * The web's realtime options (unlimited attempts, auth/login after a reconnect), with delays of
 * 100–500 ms instead of 1–10 s so that reconnects happen within a test.
 */
export function connectClient(base: string, token: string): Socket {
  const socket = connectSocket(base, {
    query: { token },
    transports: ['websocket', 'polling'],
    reconnection: true,
    reconnectionAttempts: Infinity,
    reconnectionDelay: 100,
    reconnectionDelayMax: 500,
    forceNew: true,
  });
  socket.io.on('reconnect', () => {
    socket.emit('auth/login', token);
  });
  return socket;
}

/** Every event a socket receives, in order, and a way to wait for one. */
export function recordEvents(socket: Socket) {
  const events: { name: string; payload: any }[] = [];
  const waiters: { match: (e: { name: string; payload: any }) => boolean; resolve: (payload: any) => void }[] = [];
  socket.onAny((name: string, payload: unknown) => {
    const event = { name, payload };
    events.push(event);
    for (const waiter of [...waiters]) {
      if (waiter.match(event)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(payload);
      }
    }
  });
  return {
    events,
    named: (name: string) => events.filter((e) => e.name === name).map((e) => e.payload),
    /** Resolves with the first event (already received or still to come) that matches. */
    waitFor(name: string, predicate: (payload: any) => boolean = () => true, timeoutMs = 5000): Promise<any> {
      const seen = events.find((e) => e.name === name && predicate(e.payload));
      if (seen) return Promise.resolve(seen.payload);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no ${name} event within ${timeoutMs} ms`)), timeoutMs);
        waiters.push({
          match: (e) => e.name === name && predicate(e.payload),
          resolve: (payload) => {
            clearTimeout(timer);
            resolve(payload);
          },
        });
      });
    },
  };
}

export function connected(socket: Socket): Promise<void> {
  if (socket.connected) return Promise.resolve();
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', (error) => reject(error));
  });
}
