import type { NextFunction, Request, Response } from 'express';

/**
 * Admission to the Remix handler: at most `limit` pages are rendered at once, the others wait their turn, first come
 * first served, and a page that has waited `maxWaitMs` is answered 503 with Retry-After.
 *
 * Why: in the one-process server a page is mostly computation (its api calls are answered in-process and mostly from
 * memory), so a page that starts runs to its end within one turn of the event loop. With 200 fans asking at once,
 * one turn rendered dozens of pages, and anything waiting on the network (a message being sent: about eight database
 * round trips one after another, each waiting for a turn) waited seconds per step. Sends timed out under the crowd
 * while pages finished out of order, some after 10 s (docs/benchmarks.md, load). Admitting a few at a time keeps each
 * turn short; a waiting page starts on a fresh turn (setImmediate), so database answers are handled between pages; and
 * the queue keeps pages in their order, so the wait is the same for every fan instead of a lottery. Past `maxWaitMs`
 * the fan is told to retry rather than left waiting for a page their browser will have given up on. Uploads
 * (multipart forms) go straight through.
 */
export function admission({ limit, maxWaitMs, now = () => performance.now() }: { limit: number; maxWaitMs: number; now?: () => number }) {
  let running = 0;
  const waiting: { start: () => void; refuse: () => void; since: number }[] = [];

  function admitNext() {
    while (waiting.length && running < limit) {
      const next = waiting.shift()!;
      if (now() - next.since > maxWaitMs) {
        next.refuse();
        continue;
      }
      // Its place is taken now; it starts on the next turn, after the network answers already waiting.
      running += 1;
      setImmediate(next.start);
    }
  }

  const middleware = (req: Request, res: Response, next: NextFunction) => {
    // An upload waits on the network, not the processor, and may take minutes: it must not hold a page's place.
    if (req.is('multipart/form-data')) return next();
    let admitted = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const finished = () => {
      if (!admitted) return;
      admitted = false;
      running -= 1;
      admitNext();
    };
    const start = () => {
      clearTimeout(timer);
      admitted = true;
      if (res.destroyed) return finished();
      res.once('finish', finished);
      next();
    };
    // However it ends (answered, or the fan gave up), its place is given back; a fan who leaves the queue leaves it.
    res.once('close', () => {
      clearTimeout(timer);
      const index = waiting.indexOf(entry);
      if (index >= 0) waiting.splice(index, 1);
      finished();
    });
    const entry = {
      since: now(),
      start,
      refuse: () => {
        clearTimeout(timer);
        if (!res.destroyed) res.status(503).set({ 'Retry-After': '5', 'Cache-Control': 'no-store' }).type('html').send(busyPage);
      },
    };
    if (running < limit && waiting.length === 0) {
      running += 1;
      return start();
    }
    waiting.push(entry);
    timer = setTimeout(() => {
      const index = waiting.indexOf(entry);
      if (index < 0) return;
      waiting.splice(index, 1);
      entry.refuse();
    }, maxWaitMs);
  };
  // What is rendering and what is waiting, read live (tests, and whoever wants to report it).
  return Object.defineProperties(middleware, {
    running: { get: () => running },
    waiting: { get: () => waiting.length },
  }) as typeof middleware & { readonly running: number; readonly waiting: number };
}

const busyPage =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">' +
  '<meta http-equiv="refresh" content="5"><title>Busy | Stagedoor</title></head>' +
  '<body style="font-family:system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem">' +
  '<h1>So many fans at once</h1><p>Stagedoor is busier than usual right now. This page will try again in a few seconds.</p>' +
  '<p><a href="">Try again now</a></p></body></html>';
