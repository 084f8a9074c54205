import { NotificationEvent, RealtimeEvent } from '#contract/realtime';
import type { Server as HttpServer } from 'node:http';
import { createAdapter } from '@socket.io/redis-streams-adapter';
import { Server } from 'socket.io';
import { viewerForToken } from '../auth/viewer.js';
import type { ApiContext } from '../context.js';
import { unreadTotal } from '../conversations/queries.js';
import type { Redis } from '../redis.js';
import { unreadCount } from '../notifications/queries.js';

/** The room every socket of one user joins; events for that user are sent to it. */
export const userRoom = (userId: string) => `user:${userId}`;

/**
 * How long the server keeps a dropped connection's rooms and missed events: a client back within this time gets
 * what it missed on reconnect (socket.recovered); a client away longer reconnects fresh and refetches.
 */
export const RECOVERY_WINDOW_MS = 2 * 60 * 1000;

export interface Realtime {
  io: Server;
  /** Sends an event to every open connection of one user, on whichever api node it is. */
  emitToUser(userId: string, event: string, payload: unknown): void;
  /** Drops every realtime connection of one user, on every node (a suspended account's). */
  disconnectUser(userId: string): void;
  close(): Promise<void>;
}

/**
 * socket.io on the api's HTTP server: the client connects with the token in the query and
 * sends auth/login with the token again after a reconnect.
 *
 * With REDIS_URL (the api's client, `redis`), events go through a Redis stream that every api node reads (the
 * socket.io Redis streams adapter, which makes its own connections for its blocking reads), so a message sent
 * through one node reaches a fan connected to another, and a client that reconnects to a different node still
 * recovers the events it missed.
 */
export async function createRealtime(httpServer: HttpServer, ctx: ApiContext, redis?: Redis): Promise<Realtime> {
  const io = new Server(httpServer, {
    // The web app's pages only, without credentials: the token travels in the handshake, never as a cookie.
    cors: { origin: ctx.config.webOrigins, credentials: false },
    transports: ['websocket', 'polling'],
    serveClient: false,
    // The token is checked again on recovery (middlewares run), so a revoked session does not come back.
    connectionStateRecovery: { maxDisconnectionDuration: RECOVERY_WINDOW_MS, skipMiddlewares: false },
    ...(redis ? { adapter: createAdapter(redis, { streamName: 'stagedoor:realtime', blockTimeInMs: 2000 }) } : {}),
  });

  io.use(async (socket, next) => {
    try {
      const token = socket.handshake.query.token ?? socket.handshake.auth?.token;
      const viewer = await viewerForToken(ctx, typeof token === 'string' ? token : undefined);
      if (!viewer) return next(new Error('unauthorized'));
      socket.data.userId = viewer.id;
      next();
    } catch {
      next(new Error('unauthorized'));
    }
  });

  io.on('connection', (socket) => {
    const userId = socket.data.userId as string;
    void socket.join(userRoom(userId));
    // A fresh connection may have missed changes while it was away: it gets the unread total now, and refetches
    // what it shows. A recovered one has just been sent everything it missed.
    // Sent to the socket's own room rather than with socket.emit: a broadcast carries a recovery offset, so
    // even a connection that drops before its first message can recover what it missed.
    if (!socket.recovered) {
      unreadTotal(ctx.db, userId)
        .then((total) => io.to(socket.id).emit(RealtimeEvent.unreadTotal, { total }))
        .catch((error: unknown) => ctx.log.warn({ err: error }, 'realtime: unread total failed'));
      unreadCount(ctx.db, userId)
        .then((total) => io.to(socket.id).emit(NotificationEvent.unreadTotal, { total }))
        .catch((error: unknown) => ctx.log.warn({ err: error }, 'realtime: unread notifications failed'));
    }
    socket.on(RealtimeEvent.login, async (payload: unknown, ack?: (answer: { ok: boolean }) => void) => {
      const token = typeof payload === 'string' ? payload : (payload as { token?: unknown })?.token;
      const viewer = await viewerForToken(ctx, typeof token === 'string' ? token : undefined).catch(() => undefined);
      if (!viewer) {
        ack?.({ ok: false });
        socket.disconnect(true);
        return;
      }
      if (viewer.id !== socket.data.userId) {
        void socket.leave(userRoom(socket.data.userId as string));
        socket.data.userId = viewer.id;
      }
      void socket.join(userRoom(viewer.id));
      if (typeof ack === 'function') ack({ ok: true });
    });
  });

  return {
    io,
    emitToUser(userId, event, payload) {
      io.to(userRoom(userId)).emit(event, payload);
    },
    disconnectUser(userId) {
      io.in(userRoom(userId)).disconnectSockets(true);
    },
    /**
     * Drops every realtime client and stops the adapter, but leaves the HTTP server to Fastify's close, which
     * lets requests under way finish (io.close would close the server itself and wait for every keep-alive
     * connection to go idle).
     */
    async close() {
      io.disconnectSockets(true);
      io.engine.close();
      await io.of('/').adapter.close();
    },
  };
}
