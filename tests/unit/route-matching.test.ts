import { createRequire } from 'node:module';
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';

// The router the server uses: @remix-run/router's CommonJS build, which patches/ changes at install (decision 007).
const require = createRequire(import.meta.url);
const routerFile = require.resolve('@remix-run/router');
const { matchPath, matchRoutes } = require('@remix-run/router') as typeof import('@remix-run/router');

/** A tree shaped like the app's: pathless layouts, a dynamic first segment, static pages beside it, a splat. */
const routes = [
  {
    id: 'root',
    path: '',
    children: [
      { id: 'login', path: 'login' },
      { id: 'discover', path: 'discover' },
      {
        id: 'auth',
        children: [
          { id: 'home', path: ':artistUsername', index: false },
          { id: 'vault', path: ':artistUsername/vault' },
          { id: 'item', path: ':artistUsername/vault/:id' },
          { id: 'edit', path: ':artistUsername/account/content/:id/edit' },
          { id: 'optional', path: ':artistUsername/subscribe/:step?' },
        ],
      },
      { id: 'splat', path: '*' },
    ],
  },
];
const matched = (pathname: string) => {
  const matches = matchRoutes(routes, pathname);
  const last = matches?.[matches.length - 1];
  return last ? { id: last.route.id, params: last.params } : null;
};

describe('route matching (patched to flatten a tree once, compile each pattern once, and recall matched paths)', () => {
  it('is the patched build, as are the two that build the routes of a render', () => {
    for (const file of [routerFile, require.resolve('@remix-run/react/dist/server.js'), require.resolve('react-router-dom/server')]) {
      expect(fs.readFileSync(file, 'utf8'), file).toContain('Patched (Stagedoor, patches/)');
    }
  });

  it('ranks static segments over dynamic ones and fills the params, on every call', () => {
    for (let round = 0; round < 3; round++) {
      expect(matched('/login')).toEqual({ id: 'login', params: {} });
      expect(matched('/thelatenights')).toEqual({ id: 'home', params: { artistUsername: 'thelatenights' } });
      expect(matched('/Thelatenights/Vault')).toEqual({ id: 'vault', params: { artistUsername: 'Thelatenights' } });
      expect(matched('/a/vault/42')).toEqual({ id: 'item', params: { artistUsername: 'a', id: '42' } });
      expect(matched('/a/account/content/7/edit/')).toEqual({ id: 'edit', params: { artistUsername: 'a', id: '7' } });
      expect(matched('/a/subscribe')).toEqual({ id: 'optional', params: { artistUsername: 'a', step: undefined } });
      expect(matched('/a/subscribe/register')).toEqual({ id: 'optional', params: { artistUsername: 'a', step: 'register' } });
      expect(matched('/a/b/c/d')).toEqual({ id: 'splat', params: { '*': 'a/b/c/d' } });
    }
  });

  it('matches a tree it has not seen as that tree, not as a cached one', () => {
    const other = [{ id: 'only', path: 'only/:x' }];
    expect(matchRoutes(other, '/only/1')?.[0].params).toEqual({ x: '1' });
    expect(matchRoutes(other, '/login')).toBeNull();
    expect(matched('/only/1')).toEqual({ id: 'splat', params: { '*': 'only/1' } });
  });

  it('keeps case sensitivity and the end flag apart in the pattern cache', () => {
    expect(matchPath({ path: '/Vault', caseSensitive: true }, '/vault')).toBeNull();
    expect(matchPath({ path: '/Vault', caseSensitive: false }, '/vault')?.pathname).toBe('/vault');
    expect(matchPath({ path: '/a', end: true }, '/a/b')).toBeNull();
    expect(matchPath({ path: '/a', end: false }, '/a/b')?.pathnameBase).toBe('/a');
  });

  it('answers patterns beyond the cache bound as before', () => {
    for (let i = 0; i < 1200; i++) expect(matchPath(`/p${i}/:id`, `/p${i}/${i}`)?.params).toEqual({ id: String(i) });
  });

  it('hands out a recalled match as a copy: changing one answer changes no other', () => {
    const first = matchRoutes(routes, '/a/vault/42')!;
    const again = matchRoutes(routes, '/a/vault/42')!;
    expect(again).toEqual(first);
    expect(again[again.length - 1].params).not.toBe(first[first.length - 1].params);
    // A branch's matches share one params object, as the unpatched router gives them.
    expect(new Set(again.map((match) => match.params)).size).toBe(1);
    (again[again.length - 1].params as Record<string, string>).id = 'changed';
    expect(matched('/a/vault/42')).toEqual({ id: 'item', params: { artistUsername: 'a', id: '42' } });
    expect(matchRoutes(routes, '/nothing/here/at/all/x')?.[1].route.id).toBe('splat');
    expect(matchRoutes([{ id: 'x', path: 'x' }], '/y')).toBeNull();
    expect(matchRoutes([{ id: 'x', path: 'x' }], '/y')).toBeNull();
  });

  it('answers pathnames beyond what it recalls as before', () => {
    for (let i = 0; i < 2500; i++) {
      expect(matched(`/a${i}/vault/${i}`)).toEqual({ id: 'item', params: { artistUsername: `a${i}`, id: String(i) } });
    }
    expect(matched('/a/vault/42')).toEqual({ id: 'item', params: { artistUsername: 'a', id: '42' } });
  });
});

describe('the static router (patched to convert a route array to data routes once)', () => {
  const { createStaticHandler, createStaticRouter } = require('react-router-dom/server') as typeof import('react-router-dom/server');
  const tree = [{ id: 'root', path: '/', children: [{ id: 'page', path: ':name', loader: () => null }] }];

  it('reuses the data routes of an array it has converted, and maps the matches of the context onto them', async () => {
    const handler = createStaticHandler(tree);
    const context = await handler.query(new Request('http://localhost/ada'));
    if (context instanceof Response) throw new Error('unexpected response');
    const first = createStaticRouter(tree, context);
    const again = createStaticRouter(tree, context);
    expect(again.routes).toBe(first.routes);
    expect(again.state.matches.map((match) => [match.route.id, match.params])).toEqual([
      ['root', { name: 'ada' }],
      ['page', { name: 'ada' }],
    ]);
    expect(again.state.matches[1].route).toBe(first.routes[0].children![0]);
    const other = [{ id: 'root', path: '/' }];
    expect(createStaticRouter(other, context).routes).not.toBe(first.routes);
  });
});
