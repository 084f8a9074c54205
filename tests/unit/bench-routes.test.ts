import fs from 'node:fs';
import path from 'node:path';
import { EXCLUDED_ROUTES, routePattern, routes } from '../../scripts/bench/routes.mjs';

/**
 * The bench's route coverage (docs/decisions/016): no page type goes unmeasured. The rule: every route module of app/routes
 * that renders a page — it has a default export (a component) — is measured by a row of scripts/bench/routes.mjs
 * (its `route` is the module's URL pattern), or is listed in EXCLUDED_ROUTES with the reason it is not. Layouts
 * (every segment pathless, `_auth`, `_auth._subscribed`…) render no page of their own, and resource routes (no
 * default export: a redirect, a CSV, JSON) have nothing to measure. A new page without a row fails here, as a new
 * route without a row fails the route matrix.
 */
type Row = { id: string; name: string; route: string; path: string; auth: false | 'fan' | 'artist'; throughput?: boolean; club?: boolean };

const ROUTES_DIR = path.resolve('app/routes');

function pageRoutes() {
  const layout = (name: string) =>
    name
      .replace(/\.tsx$/, '')
      .split('.')
      .every((s) => s.startsWith('_') && s !== '_index');
  return fs
    .readdirSync(ROUTES_DIR, { withFileTypes: true })
    .filter((entry) => !layout(entry.name))
    .map((entry) => (entry.isDirectory() ? `${entry.name}/route.tsx` : entry.name))
    .filter((file) => /^export default /m.test(fs.readFileSync(path.join(ROUTES_DIR, file), 'utf8')))
    .map(routePattern);
}

const club = {
  size: 'small',
  username: 'someband',
  artistToken: 'token',
  items: Object.fromEntries(['audio', 'video', 'photo', 'poll', 'presale'].map((kind) => [kind, { _id: `${kind}-id`, mediaType: kind }])),
  editItemId: 'photo-id',
  collectionId: 'collection-id',
  conversationId: 'conversation-id',
};
const rows = routes(club) as Row[];

describe('bench route coverage', () => {
  it('finds the page routes by their default export, and knows the resource routes have none', () => {
    const pages = pageRoutes();
    expect(pages).toContain('/:artistUsername/vault/:id');
    expect(pages).toContain('/:artistUsername/account/earnings');
    expect(pages).not.toContain('/:artistUsername/account/earnings.csv');
    expect(pages).not.toContain('/notifications/push');
    expect(pages).not.toContain('/lite');
  });

  it('has a bench row, or an exclusion with its reason, for every page route', () => {
    const covered = new Set([...rows.map((row) => row.route), ...Object.keys(EXCLUDED_ROUTES)]);
    expect(pageRoutes().filter((pattern) => !covered.has(pattern))).toEqual([]);
  });

  it('names no route that does not exist, and does not both measure and exclude one', () => {
    const pages = new Set(pageRoutes());
    expect(rows.filter((row) => !pages.has(row.route)).map((row) => `${row.id}: ${row.route}`)).toEqual([]);
    expect(Object.keys(EXCLUDED_ROUTES).filter((pattern) => !pages.has(pattern))).toEqual([]);
    expect(rows.filter((row) => row.route in EXCLUDED_ROUTES).map((row) => row.id)).toEqual([]);
    for (const reason of Object.values(EXCLUDED_ROUTES)) expect(reason.length).toBeGreaterThan(20);
  });

  it("gives each row a path its route matches, and the club's pages the club's artist", () => {
    const ids = rows.map((row) => row.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const row of rows) {
      const pattern = new RegExp(`^${row.route.replace(/:[A-Za-z]+/g, '[^/?]+').replace('*', '.*')}(\\?.*)?$`);
      expect(row.path, row.id).toMatch(pattern);
      if (row.club) expect(row.path, row.id).toMatch(/^\/someband(\/|$)/);
    }
  });

  it('measures every signed-in page by throughput, each kind of item page and each user the issue names', () => {
    expect(rows.filter((row) => row.auth && !row.throughput).map((row) => row.id)).toEqual([]);
    const items = rows.filter((row) => row.route === '/:artistUsername/vault/:id').map((row) => row.path.split('?')[0]);
    expect(new Set(items)).toEqual(new Set(['audio', 'video', 'photo', 'poll', 'presale'].map((kind) => `/someband/vault/${kind}-id`)));
    const signedOut = rows.filter((row) => !row.auth && row.throughput).map((row) => row.id);
    expect(signedOut).toEqual(expect.arrayContaining(['login', 'join', 'subscribe', 'register']));
    const studio = rows.filter((row) => row.auth === 'artist').map((row) => row.path.split('?')[0]);
    expect(studio).toEqual(expect.arrayContaining(['/someband/account', '/someband/account/earnings', '/someband/account/promos']));
  });
});
