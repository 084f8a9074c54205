// Part 1: page weight. Each page is loaded once, cold, in Chromium as a phone would (signed in as the seed fan
// where the page is in the authenticated area); transferred bytes are summed by type. Weight does not depend on
// the machine's speed, so one load per page is exact; CI runs this part alone (--weight-only).
import { chunksHolding, jsByPackage, loadPage } from './browser.mjs';
import { kb } from './lib.mjs';
import { CONTENT_JS_BUDGET_KB, FORM_JS_BUDGET_KB, HTML_CSS_BUDGET_KB, LITE_BUDGET_KB } from './routes.mjs';

const SOCKET_PACKAGES = /node_modules\/(socket\.io-client|engine\.io-client|socket\.io-parser|engine\.io-parser)\//;
const STRIPE_PACKAGES = /node_modules\/@stripe\//;

export async function measureWeight({ browser, app, floor, routes, token, artistToken }) {
  const socketChunks = chunksHolding(SOCKET_PACKAGES);
  const stripeChunks = chunksHolding(STRIPE_PACKAGES);
  const floorLoad = await loadPage(browser, `${floor.remixUrl}/`);
  const floorRow = { name: 'floor: minimal Remix page', state: 'floor', bytes: floorLoad.bytes, lite: null };
  const floorJs = floorLoad.bytes.js;
  // Every page is measured against the floor: a floor page without React and the Remix runtime (a busy page, an
  // error page) would make every page look heavier than it is, so the run stops and says why.
  if (!floorJs) {
    throw new Error(
      `the floor page at ${floor.remixUrl}/ loaded no JavaScript (status ${floorLoad.status ?? '?'}): the floor is broken, not the app`,
    );
  }

  const rows = [];
  const checks = [];
  for (const route of routes) {
    process.stdout.write(`  weight: ${route.name} … `);
    const url = `${app.webUrl}${route.path}`;
    // auth 'artist': an artist's own page (the studio), signed in as the seed artist.
    const signedIn = route.auth === 'artist' ? artistToken : route.auth ? token : undefined;
    const normal = await loadPage(browser, url, { token: signedIn });
    const row = {
      route,
      name: route.name,
      path: route.path,
      bytes: normal.bytes,
      lite: null,
      state: 'measured',
      notes: [],
      js: jsByPackage(normal.requests),
    };
    rows.push(row);
    if (normal.status === 404) {
      row.state = 'not built yet';
      console.log('not built yet (404)');
      continue;
    }
    const landed = new URL(normal.finalUrl);
    if (`${landed.pathname}${landed.search}` !== route.path) {
      row.state = `redirected to ${landed.pathname}`;
      console.log(row.state);
      continue;
    }
    if (normal.status !== 200) {
      row.state = `answered ${normal.status}`;
      console.log(row.state);
      continue;
    }
    // Lite mode (Save-Data: on) is loaded for the pages in its budget only: one cold load a page keeps the part short.
    if (route.lite) {
      const lite = await loadPage(browser, url, { token: signedIn, saveData: true });
      row.lite = lite.bytes;
      row.liteNoImages = total(lite.bytes) - lite.bytes.img;
      // Lite mode is built when a Save-Data request gets no client script.
      row.liteBuilt = lite.bytes.js === 0;
    }
    console.log(
      `${fmtKb(total(normal.bytes))} KB (JS ${fmtKb(normal.bytes.js)} KB)${route.lite ? `, lite ${fmtKb(row.liteNoImages)} KB` : ''}`,
    );

    // Stripe.js only on the payment page.
    const stripeLoaded = normal.requests.some((r) => /(^|\.)stripe\.com$/.test(safeHost(r.url)) || stripeChunks.has(safePath(r.url)));
    if (stripeLoaded) row.notes.push('loads Stripe.js');
    checks.push({
      part: 'weight',
      what: `${route.name}: Stripe.js ${route.stripeAllowed ? 'may load (payment page)' : 'does not load'}`,
      value: stripeLoaded ? 'loaded' : 'not loaded',
      budget: route.stripeAllowed ? 'allowed' : 'not loaded',
      status: route.stripeAllowed || !stripeLoaded ? 'ok' : 'miss',
    });
    // socket.io-client only in the authenticated area, and only after the page is interactive: it must not be
    // in the document's scripts or module preloads (then it can only arrive by a dynamic import after hydration).
    const socketRequests = normal.requests.filter((r) => socketChunks.has(safePath(r.url)));
    const socketInDocument = [...socketChunks].some((chunk) => normal.documentHtml.includes(chunk));
    if (socketRequests.length) row.notes.push(`socket.io-client ${fmtKb(sum(socketRequests.map((r) => r.bytes)))} KB after load`);
    let socketStatus = 'ok';
    let socketValue = socketRequests.length ? 'loaded after interactive' : 'not loaded';
    if (socketInDocument) {
      socketStatus = 'miss';
      socketValue = 'in the first scripts';
    } else if (socketRequests.length && !route.auth) {
      socketStatus = 'miss';
      socketValue = 'loaded outside the authenticated area';
    }
    checks.push({
      part: 'weight',
      what: `${route.name}: socket.io-client ${route.auth ? 'only after interactive' : 'not loaded (not signed in)'}`,
      value: socketValue,
      budget: route.auth ? 'after interactive' : 'not loaded',
      status: socketStatus,
    });

    const budget = route.budget;
    if (budget) {
      const limit = budget === 'content' ? CONTENT_JS_BUDGET_KB : FORM_JS_BUDGET_KB;
      const above = kb(normal.bytes.js - floorJs);
      const held = above <= limit;
      checks.push({
        part: 'weight',
        what: `${route.name}: JavaScript above the floor`,
        value: `${above.toFixed(1)} KB (${fmtKb(normal.bytes.js)} KB, floor ${fmtKb(floorJs)} KB, ×${ratio(normal.bytes.js, floorJs)})`,
        budget: `≤ ${limit} KB`,
        status: held ? 'ok' : 'miss',
      });
      const htmlCss = kb(normal.bytes.html + normal.bytes.css);
      checks.push({
        part: 'weight',
        what: `${route.name}: HTML + CSS`,
        value: `${htmlCss.toFixed(1)} KB`,
        budget: `≤ ${HTML_CSS_BUDGET_KB} KB`,
        status: htmlCss <= HTML_CSS_BUDGET_KB ? 'ok' : 'miss',
      });
    }
    if (route.lite) {
      const value = kb(row.liteNoImages);
      checks.push({
        part: 'weight',
        what: `${route.name}: lite mode (Save-Data: on), all but images`,
        value: `${value.toFixed(1)} KB`,
        budget: `≤ ${LITE_BUDGET_KB} KB`,
        status: row.liteBuilt ? (value <= LITE_BUDGET_KB ? 'ok' : 'miss') : 'n/a',
        note: row.liteBuilt ? undefined : 'lite mode not built (Save-Data pages still ship scripts)',
      });
    }
  }
  for (const row of rows) {
    if (row.state === 'not built yet') {
      checks.push({ part: 'weight', what: `${row.name}: page weight`, value: '—', budget: '', status: 'n/a', note: 'not built yet (404)' });
    } else if (row.state !== 'measured') {
      checks.push({ part: 'weight', what: `${row.name}: page weight`, value: '—', budget: '', status: 'miss', note: row.state });
    }
  }
  return { floorRow, floorJs, floorJsByPackage: jsByPackage(floorLoad.requests, `${floor.dir}/build/web/metafile.js.json`), rows, checks };
}

export function weightTable({ floorRow, rows }) {
  const header = [
    'page',
    'HTML',
    'CSS',
    'JS',
    'JS − floor',
    'images',
    'fonts',
    'other',
    'total',
    'HTML+CSS',
    'lite (no img)',
    'lite JS',
    'notes',
  ];
  const floorJs = floorRow.bytes.js;
  const line = (name, b, lite, liteNoImages, notes) => [
    name,
    fmtKb(b.html),
    fmtKb(b.css),
    fmtKb(b.js),
    name.startsWith('floor') ? '' : signedKb(b.js - floorJs),
    fmtKb(b.img),
    fmtKb(b.font),
    fmtKb(b.other),
    fmtKb(total(b)),
    fmtKb(b.html + b.css),
    lite ? fmtKb(liteNoImages) : '',
    lite ? fmtKb(lite.js) : '',
    notes,
  ];
  const body = [line(floorRow.name, floorRow.bytes, null, null, 'React + Remix runtime, same config and web server')];
  for (const row of rows) {
    if (row.state !== 'measured') body.push([row.name, '', '', '', '', '', '', '', '', '', '', '', row.state]);
    else body.push(line(row.name, row.bytes, row.lite, row.liteNoImages, row.notes.join('; ')));
  }
  return { title: 'Page weight (KB transferred, compressed as served; first visit, cold cache)', header, rows: body };
}

const total = (b) => b.html + b.css + b.js + b.img + b.font + b.other;
const sum = (values) => values.reduce((a, b) => a + b, 0);
export const fmtKb = (bytes) => (bytes == null ? '' : (bytes / 1024).toFixed(1));
const signedKb = (bytes) => `${bytes >= 0 ? '+' : '−'}${fmtKb(Math.abs(bytes))}`;
const ratio = (a, b) => (b ? (a / b).toFixed(2) : '—');
function safeHost(url) {
  try {
    return new URL(url).hostname;
  } catch {
    return '';
  }
}
function safePath(url) {
  try {
    return new URL(url).pathname;
  } catch {
    return '';
  }
}

/** The biggest contributors to the JavaScript of the floor and of a few pages, in KB transferred (estimated). */
export function jsBreakdownTable({ floorJsByPackage, rows }, pageIds = ['login', 'home', 'vault', 'vaultItem', 'posts']) {
  const pages = rows.filter((r) => r.state === 'measured' && pageIds.includes(r.route.id));
  const names = new Map();
  for (const [name, bytes] of floorJsByPackage) names.set(name, Math.max(names.get(name) ?? 0, bytes));
  for (const page of pages) for (const [name, bytes] of page.js) names.set(name, Math.max(names.get(name) ?? 0, bytes));
  const top = [...names.entries()]
    .filter(([, b]) => b >= 512)
    .sort((a, b) => b[1] - a[1])
    .map(([n]) => n);
  const lookup = (list, name) => list.find(([n]) => n === name)?.[1];
  return {
    title: 'Where the JavaScript comes from (KB transferred, shared out by bytes in each chunk; estimate)',
    header: ['package or app folder', 'floor', ...pages.map((p) => p.name)],
    rows: top.map((name) => [name, fmtKb(lookup(floorJsByPackage, name)), ...pages.map((p) => fmtKb(lookup(p.js, name)))]),
  };
}
