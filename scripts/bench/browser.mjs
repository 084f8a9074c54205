// One cold load of one page in Chromium, watched through the DevTools protocol: bytes transferred by type
// (Network.loadingFinished encodedDataLength: compressed, as served, headers included), which scripts came, and
// optionally paint metrics under network and CPU throttling.
import fs from 'node:fs';
import path from 'node:path';
import { chromium } from '@playwright/test';
import { CHROMIUM, CHROMIUM_ARGS, ROOT, sleep } from './lib.mjs';

/** A mid-range phone, as Lighthouse's mobile run: 412 × 823 CSS px at 1.75 device pixels per px. */
export const PHONE = { viewport: { width: 412, height: 823 }, deviceScaleFactor: 1.75, isMobile: true, hasTouch: true };

export const SLOW_4G = { name: 'Slow 4G', latency: 150, down: (1.6 * 1000 * 1000) / 8, up: (750 * 1000) / 8, cpu: 4 };
export const SLOW_3G = { name: 'Slow 3G', latency: 2000, down: (400 * 1000) / 8, up: (400 * 1000) / 8, cpu: 4 };

export function launchBrowser() {
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
}

const TYPE = { Document: 'html', Stylesheet: 'css', Script: 'js', Image: 'img', Font: 'font', Media: 'img' };

/** Public URLs (/build/…) of the client chunks that hold the given packages, from the compiler's metafile. */
export function chunksHolding(pattern, metafile = path.join(ROOT, 'build/web/metafile.js.json')) {
  const meta = JSON.parse(fs.readFileSync(metafile, 'utf8'));
  const urls = new Set();
  for (const [output, info] of Object.entries(meta.outputs)) {
    if (!output.endsWith('.js')) continue;
    if (Object.keys(info.inputs).some((input) => pattern.test(input))) {
      urls.add(`/${output.replace(/^public\//, '')}`);
    }
  }
  return urls;
}

const METRICS_SCRIPT = `(() => {
  const b = (window.__bench = { fcp: null, lcp: null, cls: 0, formAt: null });
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) if (e.name === 'first-contentful-paint') b.fcp = e.startTime;
    }).observe({ type: 'paint', buffered: true });
    new PerformanceObserver((list) => {
      const entries = list.getEntries();
      if (entries.length) b.lcp = entries[entries.length - 1].startTime;
    }).observe({ type: 'largest-contentful-paint', buffered: true });
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) if (!e.hadRecentInput) b.cls += e.value;
    }).observe({ type: 'layout-shift', buffered: true });
  } catch {}
  // A form someone fills in: a post form with a visible field and a submit button (not the sign-out button).
  const seeSubmit = () => {
    if (b.formAt != null) return;
    for (const form of document.querySelectorAll('form[method="post" i]')) {
      if (form.querySelector('input:not([type="hidden"]), textarea, select') && form.querySelector('button[type="submit"], input[type="submit"]')) {
        b.formAt = performance.now();
        return;
      }
    }
  };
  new MutationObserver(seeSubmit).observe(document, { childList: true, subtree: true });
})();`;

/**
 * Loads `url` in a fresh browser context (cold cache, no cookies but the session's).
 * options: token (the `stagedoor` cookie), saveData (sends Save-Data: on), throttle (SLOW_4G/SLOW_3G),
 * metrics (collect paint metrics), quietMs (network quiet that ends the load).
 */
export async function loadPage(browser, url, { token, saveData = false, throttle, metrics = false, quietMs = 1000, maxMs = 60_000 } = {}) {
  const context = await browser.newContext({
    ...PHONE,
    extraHTTPHeaders: saveData ? { 'Save-Data': 'on' } : {},
  });
  try {
    if (token)
      await context.addCookies([{ name: 'stagedoor', value: token, url: new URL(url).origin, httpOnly: true, sameSite: 'Strict' }]);
    const page = await context.newPage();
    if (metrics) await page.addInitScript(METRICS_SCRIPT);
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: false });
    if (throttle) {
      await cdp.send('Network.emulateNetworkConditions', {
        offline: false,
        latency: throttle.latency,
        downloadThroughput: throttle.down,
        uploadThroughput: throttle.up,
      });
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: throttle.cpu });
    }
    const requests = new Map();
    let inflight = 0;
    let lastActivity = Date.now();
    cdp.on('Network.requestWillBeSent', (e) => {
      if (e.type === 'WebSocket') return;
      if (!requests.has(e.requestId)) inflight++;
      const prev = requests.get(e.requestId);
      requests.set(e.requestId, { url: e.request.url, type: e.type, bytes: 0, status: prev?.status, done: false, ts: e.timestamp });
      lastActivity = Date.now();
    });
    cdp.on('Network.responseReceived', (e) => {
      const r = requests.get(e.requestId);
      if (r) {
        r.status = e.response.status;
        r.type = e.type;
        r.mime = e.response.mimeType;
        r.url = e.response.url;
        r.responseTs = e.timestamp;
      }
    });
    const finish = (e, failed) => {
      const r = requests.get(e.requestId);
      if (r && !r.done) {
        r.done = true;
        r.failed = failed;
        r.bytes = failed ? 0 : e.encodedDataLength;
        inflight--;
      }
      lastActivity = Date.now();
    };
    cdp.on('Network.loadingFinished', (e) => finish(e, false));
    cdp.on('Network.loadingFailed', (e) => finish(e, true));

    const started = Date.now();
    const response = await page.goto(url, { waitUntil: 'load', timeout: maxMs });
    while (Date.now() - started < maxMs && (inflight > 0 || Date.now() - lastActivity < quietMs)) await sleep(100);

    const bytes = { html: 0, css: 0, js: 0, img: 0, font: 0, other: 0 };
    const list = [...requests.values()];
    for (const r of list) bytes[TYPE[r.type] ?? 'other'] += r.bytes;
    const documentHtml = await page.content().catch(() => '');
    let paint = null;
    if (metrics) {
      // Time to first byte from the protocol's own clock: Navigation Timing does not see DevTools throttling.
      const doc = list.find((r) => r.type === 'Document');
      paint = await page.evaluate(() => ({ ...window.__bench }));
      paint.ttfb = doc?.responseTs != null ? (doc.responseTs - doc.ts) * 1000 : null;
    }
    return {
      status: response?.status() ?? null,
      finalUrl: page.url(),
      bytes,
      requests: list,
      documentHtml,
      paint,
    };
  } finally {
    await context.close();
  }
}

/**
 * Submits a form with every script blocked (as before the JavaScript has arrived): fills `fields`, presses the
 * submit button, and answers where the browser ended up.
 */
export async function submitWithoutScripts(browser, url, fields) {
  const context = await browser.newContext({ ...PHONE });
  try {
    const page = await context.newPage();
    await page.route(/\.js(\?|$)/, (route) => route.abort());
    await page.goto(url, { waitUntil: 'load' });
    const form = page.locator('form[method="post" i]', { has: page.locator(`[name="${Object.keys(fields)[0]}"]`) }).first();
    for (const [name, value] of Object.entries(fields)) await form.locator(`[name="${name}"]`).fill(value);
    await Promise.all([
      page.waitForNavigation({ waitUntil: 'load', timeout: 30_000 }),
      form.locator('button[type="submit"], input[type="submit"]').first().click(),
    ]);
    const scriptsRan = await page.evaluate(() => Boolean(window.__remixRouter));
    return { finalUrl: page.url(), scriptsRan };
  } finally {
    await context.close();
  }
}

/**
 * Where a page's JavaScript comes from: each script's transferred bytes shared out over the packages (or app
 * folders) whose code is in it, in proportion to their bytes in the chunk (esbuild's metafile). An estimate: gzip
 * does not compress every part equally.
 */
export function jsByPackage(requests, metafile = path.join(ROOT, 'build/web/metafile.js.json')) {
  const meta = JSON.parse(fs.readFileSync(metafile, 'utf8'));
  const byUrl = new Map(Object.entries(meta.outputs).map(([output, info]) => [`/${output.replace(/^public\//, '')}`, info]));
  const shares = new Map();
  for (const r of requests) {
    if (r.type !== 'Script' || !r.bytes) continue;
    let pathname = '';
    try {
      pathname = new URL(r.url).pathname;
    } catch {
      // a data: or blob: address: no path to match
    }
    const info = byUrl.get(pathname);
    if (!info) {
      shares.set('(other scripts)', (shares.get('(other scripts)') ?? 0) + r.bytes);
      continue;
    }
    const inputs = Object.entries(info.inputs);
    const total = inputs.reduce((a, [, v]) => a + v.bytesInOutput, 0) || 1;
    for (const [input, v] of inputs) {
      const name = packageOf(input);
      shares.set(name, (shares.get(name) ?? 0) + (r.bytes * v.bytesInOutput) / total);
    }
  }
  return [...shares.entries()].sort((a, b) => b[1] - a[1]);
}

function packageOf(input) {
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input);
  if (m) return m[1];
  const app = /(?:^|\/)app\/([^/]+)/.exec(input);
  return app ? `app/${app[1]}` : input;
}
