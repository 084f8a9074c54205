import { chromium } from '@playwright/test';
import fs from 'node:fs';
const api = 'http://localhost:8380', web = 'http://localhost:3300';
const login = async (u, p) => (await (await fetch(`${api}/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: u, password: p, remember: true }) })).json()).data.token;
const artist = await login('juniper@stagedoor.test', 'Stagedoor-artist-2026!');
const fan = await login('fan@stagedoor.test', 'Stagedoor-fan-2026!');
async function up(file, kind) {
  const form = new FormData();
  form.append('file', new Blob([fs.readFileSync(file)]), file.split('/').pop());
  const r = await fetch(`${api}/media?kind=${kind}`, { method: 'POST', body: form, headers: { authorization: `Bearer ${artist}` } });
  return (await r.json()).data._id;
}
async function item(title, tags, mediaId) {
  const r = await fetch(`${api}/content`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${artist}` }, body: JSON.stringify({ title, content: '<p>From the road.</p>', tags, mediaId }) });
  return (await r.json()).data._id;
}
const phone = await item('Soundcheck in Leeds (phone video)', 'videoMessage', await up('/tmp/media-shot/phone.mp4', 'video'));
await new Promise((r) => setTimeout(r, 15000));
await item('Full rehearsal, 1080p', 'session', await up('/tmp/media-shot/long.mp4', 'video'));
await item('Kitchen demo (WAV)', 'demo', await up('/tmp/media-shot/demo.wav', 'audio'));
await item('Broken upload', 'videoMessage', await up('/tmp/media-shot/cut.mp4', 'video'));
await new Promise((r) => setTimeout(r, 3000));
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox'] });
for (const [who, token, path, name] of [['artist', artist, '/juniperlane/account/content', 'content'], ['fan', fan, `/juniperlane/vault/${phone}?type=video`, 'video']]) {
  for (const width of [375, 1280]) {
    const ctx = await browser.newContext({ viewport: { width, height: 900 } });
    await ctx.addCookies([{ name: 'stagedoor', value: token, url: web }]);
    const page = await ctx.newPage();
    await page.goto(web + path);
    await page.waitForTimeout(2500);
    await page.screenshot({ path: `/tmp/media-shot/${name}-${width}.png`, fullPage: width === 375 ? false : true });
    await ctx.close();
  }
}
await browser.close();
