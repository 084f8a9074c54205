// Part 4: realtime. N authenticated socket.io clients (websocket, as the web client prefers) are open tabs of the
// seed fan, the widest fan-out there is: every message in the fan's conversations reaches every one of them.
// Three senders (the fan and their two artists, each under the api's 30-messages-a-minute limit) post messages at a
// steady rate through the REST api; the latency of each delivery is the time from just before the POST to the
// `message/created` event on each client (same process, same clock). Server memory is read from /proc after a GC
// forced through the inspector with 0, N and 2N connections.
import { io } from 'socket.io-client';
import { api } from './app.mjs';
import { percentile, settledRssMb, sleep } from './lib.mjs';

export const RT_P99_BUDGET_MS = 100;
export const RT_MEMORY_BUDGET_MB = 512;
const MESSAGES_PER_MINUTE = 30;

async function connectMany(apiUrl, token, count, sockets) {
  const batch = 50;
  let failed = 0;
  for (let i = 0; i < count; i += batch) {
    const opened = await Promise.all(
      Array.from(
        { length: Math.min(batch, count - i) },
        () =>
          new Promise((resolve) => {
            const socket = io(apiUrl, {
              query: { token },
              transports: ['websocket'],
              reconnection: false,
              forceNew: true,
              timeout: 20_000,
            });
            socket.once('connect', () => resolve(socket));
            socket.once('connect_error', () => {
              failed++;
              socket.close();
              resolve(null);
            });
          }),
      ),
    );
    for (const s of opened) if (s) sockets.push(s);
  }
  return failed;
}

async function memoryAt(app) {
  const { heapUsedMb } = await app.gc();
  return { rss: await settledRssMb(app.pid, 3000), heap: heapUsedMb };
}

export async function measureRealtime({ app, fixtures, clients, rate, duration }) {
  const sockets = [];
  const memory = [];
  const checks = [];
  try {
    memory.push({ connections: 0, ...(await memoryAt(app)) });
    const failedFirst = await connectMany(app.apiUrl, fixtures.fanToken, clients, sockets);
    await sleep(1000);
    memory.push({ connections: sockets.length, ...(await memoryAt(app)) });
    console.log(
      `  realtime: ${sockets.length} clients connected${failedFirst ? `, ${failedFirst} failed` : ''}; RSS ${memory[1].rss.toFixed(0)} MB`,
    );

    // Senders take turns; each stays under the per-user limit for the whole run.
    const senders = [
      { token: fixtures.artistToken, conversationId: () => fixtures.conversationId },
      { token: fixtures.otherToken, conversationId: () => fixtures.otherConversationId },
      { token: fixtures.fanToken, conversationId: (i) => (i % 2 ? fixtures.otherConversationId : fixtures.conversationId) },
    ];
    const perUserMax = MESSAGES_PER_MINUTE - 4;
    const total = Math.min(Math.round(rate * duration), perUserMax * senders.length);
    const sentAt = new Map();
    const latencies = [];
    const onCreated = (payload) => {
      const at = performance.now();
      const started = sentAt.get(payload?.message?.clientId);
      if (started != null) latencies.push(at - started);
    };
    for (const socket of sockets) socket.on('message/created', onCreated);
    const interval = 1000 / rate;
    const begin = performance.now();
    const posts = [];
    let sendErrors = 0;
    for (let i = 0; i < total; i++) {
      const due = begin + i * interval;
      const wait = due - performance.now();
      if (wait > 0) await sleep(wait);
      const sender = senders[i % senders.length];
      const clientId = `bench-${process.pid}-${i}`;
      sentAt.set(clientId, performance.now());
      posts.push(
        api(app, 'POST', `/messages/conversations/${sender.conversationId(Math.floor(i / senders.length))}`, {
          token: sender.token,
          body: { text: `Bench message ${i}`, fileIds: [], type: 'text', clientId },
        }).catch(() => sendErrors++),
      );
    }
    await Promise.all(posts);
    await sleep(2000);
    const expected = total * sockets.length;
    const p50 = percentile(latencies, 50);
    const p99 = percentile(latencies, 99);
    console.log(
      `  realtime: ${total} messages in ${((performance.now() - begin) / 1000).toFixed(0)} s to ${sockets.length} clients: ${latencies.length}/${expected} deliveries, p50 ${p50?.toFixed(1)} ms, p99 ${p99?.toFixed(1)} ms${sendErrors ? `, ${sendErrors} sends failed` : ''}`,
    );
    for (const socket of sockets) socket.off('message/created', onCreated);

    const failedSecond = await connectMany(app.apiUrl, fixtures.fanToken, clients, sockets);
    await sleep(1000);
    memory.push({ connections: sockets.length, ...(await memoryAt(app)) });
    console.log(
      `  realtime: ${sockets.length} clients connected${failedSecond ? `, ${failedSecond} failed` : ''}; RSS ${memory[2].rss.toFixed(0)} MB`,
    );

    const full = clients >= 1000;
    checks.push({
      part: 'realtime',
      what: `delivery p99 with ${sockets.length / 2} clients (${app.label})`,
      value: `${p99?.toFixed(1)} ms (p50 ${p50?.toFixed(1)} ms; ${latencies.length} of ${expected} delivered)`,
      budget: `≤ ${RT_P99_BUDGET_MS} ms, all delivered`,
      status: full ? (p99 != null && p99 <= RT_P99_BUDGET_MS && latencies.length === expected && !sendErrors ? 'ok' : 'miss') : 'n/a',
      note: full ? undefined : 'budget is for 1000 clients',
    });
    const top = memory[2];
    checks.push({
      part: 'realtime',
      what: `server RSS with ${top.connections} connections (${app.label})`,
      value: `${top.rss.toFixed(0)} MB`,
      budget: `≤ ${RT_MEMORY_BUDGET_MB} MB`,
      status: top.connections >= 2000 ? (top.rss <= RT_MEMORY_BUDGET_MB ? 'ok' : 'miss') : 'n/a',
      note: top.connections >= 2000 ? undefined : 'budget is for 2000 connections',
    });
    return {
      label: app.label,
      clients: sockets.length / 2,
      total,
      rate,
      p50,
      p99,
      delivered: latencies.length,
      expected,
      sendErrors,
      memory,
      checks,
    };
  } finally {
    for (const socket of sockets) socket.close();
    await sleep(500);
  }
}

export function realtimeTables(results) {
  const list = Array.isArray(results) ? results : [results];
  return [
    {
      title: 'Realtime: message delivery to connected clients (socket.io over websocket, loopback)',
      header: ['database', 'clients', 'messages', 'rate /s', 'delivered', 'p50 ms', 'p99 ms', 'budget p99'],
      rows: list.map((r) => [
        r.label,
        r.clients,
        r.total,
        r.rate,
        `${r.delivered} / ${r.expected}`,
        r.p50?.toFixed(1),
        r.p99?.toFixed(1),
        `≤ ${RT_P99_BUDGET_MS}`,
      ]),
    },
    {
      title: 'Realtime: server memory by open connections (MB, after a forced GC)',
      header: ['database', 'connections', 'RSS', 'heap in use', 'budget RSS'],
      rows: list.flatMap((r) =>
        r.memory.map((m) => [
          r.label,
          m.connections,
          m.rss.toFixed(0),
          m.heap?.toFixed(0) ?? '',
          m.connections >= 2000 ? `≤ ${RT_MEMORY_BUDGET_MB}` : '',
        ]),
      ),
    },
  ];
}
