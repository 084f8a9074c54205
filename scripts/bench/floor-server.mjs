// Child process of the bench: serves the minimal Remix floor through the app's own web server module
// (server/web.ts bundled into the floor folder), and a bare Node `http` JSON answer.
import http from 'node:http';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const [dir, remixPort, httpPort] = process.argv.slice(2);
const { createWebServer } = await import(pathToFileURL(path.join(dir, 'web.mjs')).href);
const { parseConfig } = await import(pathToFileURL(path.join(dir, 'config.mjs')).href);
// The same web server as the app's, with the app's configuration and its defaults (admission to pages, security
// headers); the floor page calls no api.
const config = parseConfig({ APP_ENV: 'local', PUBLIC_WEB_URL: `http://localhost:${remixPort}` });
const noApi = () => Promise.reject(new Error('the floor page calls no api'));
const app = await createWebServer(config, noApi, { root: dir });
app.listen(Number(remixPort), '0.0.0.0');

const body = JSON.stringify({ status: 0, data: { _id: '0b1a33', name: 'Floor', username: 'floor', yearlyPrice: 0 } });
http
  .createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  })
  .listen(Number(httpPort), '0.0.0.0');
