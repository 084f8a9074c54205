// Part 3: slow-network paint. Each page is loaded cold several times in Chromium with network and CPU throttling
// through the DevTools protocol; TTFB, FCP, LCP and CLS come from the page's own PerformanceObservers, and "form
// ready" is when the form's submit button is in the document (the forms work before JavaScript: checked here too,
// by submitting with every script blocked).
import { ARTIST, FAN } from './app.mjs';
import { loadPage, SLOW_3G, SLOW_4G, submitWithoutScripts } from './browser.mjs';
import { median } from './lib.mjs';

export const LCP_BUDGET_MS = 2500;
export const CLS_BUDGET = 0.1;

export async function measurePaint({ browser, app, floor, routes, fixtures, loads, slow3g }) {
  const profiles = [SLOW_4G, ...(slow3g.length ? [SLOW_3G] : [])];
  const rows = [];
  const checks = [];
  const pages = [{ name: 'floor: minimal Remix page', url: `${floor.remixUrl}/`, floor: true }].concat(
    routes.map((route) => ({ name: route.name, url: `${app.webUrl}${route.path}`, route })),
  );
  for (const page of pages) {
    const token = page.route?.auth === 'artist' ? fixtures.artistToken : page.route?.auth ? fixtures.fanToken : undefined;
    for (const profile of profiles) {
      // Slow 4G for the floor and every page with a budget (the others once); Slow 3G takes long (about 15 s a
      // load): the floor and the pages named by --slow3g, at most 3 loads each.
      if (profile === SLOW_3G && page.route && !slow3g.includes(page.route.id)) continue;
      const count = profile === SLOW_3G ? Math.min(loads, 3) : page.route && !page.route.budget ? 1 : loads;
      const samples = [];
      let state = 'measured';
      for (let i = 0; i < count; i++) {
        const result = await loadPage(browser, page.url, { token, throttle: profile, metrics: true, quietMs: 500, maxMs: 120_000 });
        if (result.status === 404) {
          state = 'not built yet';
          break;
        }
        const landed = new URL(result.finalUrl);
        if (page.route && `${landed.pathname}${landed.search}` !== page.route.path) {
          state = `redirected to ${landed.pathname}`;
          break;
        }
        samples.push(result.paint);
      }
      const m = (key) => median(samples.map((s) => s[key]));
      const row = { page, profile: profile.name, state, n: samples.length, ttfb: m('ttfb'), fcp: m('fcp'), lcp: m('lcp'), cls: m('cls') };
      // "Form ready": when a page with a form to fill in has it in the document (it works before JavaScript).
      row.formAt = page.route?.budget === 'form' ? m('formAt') : null;
      rows.push(row);
      console.log(
        `  paint: ${page.name} on ${profile.name}: ${state === 'measured' ? `TTFB ${fmtMs(row.ttfb)}, FCP ${fmtMs(row.fcp)}, LCP ${fmtMs(row.lcp)}, CLS ${fmtCls(row.cls)}${row.formAt != null ? `, form ready ${fmtMs(row.formAt)}` : ''}` : state}`,
      );
      if (page.route?.budget && profile === SLOW_4G) {
        if (state === 'not built yet') {
          checks.push({
            part: 'paint',
            what: `${page.name}: paint on Slow 4G`,
            value: '—',
            budget: '',
            status: 'n/a',
            note: 'not built yet (404)',
          });
        } else if (state !== 'measured') {
          checks.push({ part: 'paint', what: `${page.name}: paint on Slow 4G`, value: '—', budget: '', status: 'miss', note: state });
        } else {
          checks.push({
            part: 'paint',
            what: `${page.name}: LCP on Slow 4G, CPU ×4 (median of ${row.n})`,
            value: `${fmtMs(row.lcp)} ms (floor ${fmtMs(rows.find((r) => r.page.floor && r.profile === SLOW_4G.name)?.lcp)} ms)`,
            budget: `≤ ${LCP_BUDGET_MS} ms`,
            status: row.lcp != null && row.lcp <= LCP_BUDGET_MS ? 'ok' : 'miss',
          });
          checks.push({
            part: 'paint',
            what: `${page.name}: CLS on Slow 4G (median of ${row.n})`,
            value: fmtCls(row.cls),
            budget: `≤ ${CLS_BUDGET}`,
            status: row.cls != null && row.cls <= CLS_BUDGET ? 'ok' : 'miss',
          });
        }
      }
    }
  }

  // The login and register forms submit successfully before JavaScript has loaded.
  const submits = [];
  for (const route of routes.filter((r) => r.submitCheck)) {
    const login = route.submitCheck === 'login';
    const unique = `bench${Date.now().toString(36)}`;
    const fields = login
      ? { usernameOrEmail: FAN.email, password: FAN.password }
      : { username: unique, email: `${unique}@bench.stagedoor.test`, password: 'Bench-pass-2026!' };
    const expected = login ? '/discover' : `/${ARTIST}/subscribe/payment`;
    let value;
    let ok = false;
    try {
      const result = await submitWithoutScripts(browser, `${app.webUrl}${route.path}`, fields);
      const landed = new URL(result.finalUrl).pathname;
      ok = landed === expected && !result.scriptsRan;
      value = `landed on ${landed}${result.scriptsRan ? ' (but scripts ran)' : ''}`;
    } catch (error) {
      value = `failed: ${error.message.split('\n')[0]}`;
    }
    submits.push({ name: route.name, value, expected });
    console.log(`  submit before JavaScript: ${route.name}: ${value}`);
    checks.push({
      part: 'paint',
      what: `${route.name}: the form submits with every script blocked`,
      value,
      budget: `lands on ${expected}`,
      status: ok ? 'ok' : 'miss',
    });
  }
  return { rows, checks, submits };
}

export function paintTable({ rows }) {
  const floor = (profile) => rows.find((r) => r.page.floor && r.profile === profile);
  return {
    title: 'Slow-network paint (ms, median of cold loads; Slow 4G: 150 ms RTT, 1.6/0.75 Mbps; Slow 3G: 2000 ms, 0.4 Mbps; CPU ×4)',
    header: ['page', 'network', 'loads', 'TTFB', 'FCP', 'LCP', 'LCP ÷ floor', 'CLS', 'form ready', 'notes'],
    rows: rows.map((r) => {
      if (r.state !== 'measured') return [r.page.name, r.profile, '', '', '', '', '', '', '', r.state];
      const f = floor(r.profile);
      return [
        r.page.name,
        r.profile,
        r.n,
        fmtMs(r.ttfb),
        fmtMs(r.fcp),
        fmtMs(r.lcp),
        r.page.floor || !f?.lcp ? '' : `×${(r.lcp / f.lcp).toFixed(2)}`,
        fmtCls(r.cls),
        fmtMs(r.formAt),
        '',
      ];
    }),
  };
}

const fmtMs = (v) => (v == null ? '' : v.toFixed(0));
const fmtCls = (v) => (v == null ? '' : v.toFixed(3));
