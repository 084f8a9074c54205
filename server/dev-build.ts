import { broadcastDevReady, type ServerBuild } from '@remix-run/node';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * `npm run dev` only (remix dev --manual, docs/architecture.md "Dev loop"): the Remix compiler rebuilds the app on
 * every edit and writes version.txt beside the server build once the build is complete; we import the new build
 * and tell the compiler we serve it, which then reloads (or hot-updates) the browser. The process stays up, so the
 * api and its database are not restarted for a component's edit.
 */
export function liveBuild(buildPath: string, initial: ServerBuild) {
  let build = initial;
  let loading = Promise.resolve();
  const dir = path.dirname(buildPath);
  const url = pathToFileURL(buildPath).href;

  const announce = () =>
    broadcastDevReady(build).catch((error: Error) => console.error(`dev: the Remix compiler did not answer (${error.message})`));

  const reload = async () => {
    let version: string;
    try {
      version = fs.readFileSync(path.join(dir, 'version.txt'), 'utf8').trim();
    } catch {
      return;
    }
    if (version === build.assets.version) return;
    // A new URL each time: Node keeps every module it has imported, and would hand back the old build.
    build = (await import(`${url}?version=${version}`)) as ServerBuild;
    await announce();
  };

  const check = () => {
    loading = loading.then(reload).catch((error: Error) => console.error(`dev: could not load the new build: ${error.message}`));
  };
  void announce();
  // One watch on the folder: the compiler writes version.txt anew each time, and a write comes as several events.
  fs.watch(dir, (_event, name) => name === 'version.txt' && check()).unref();
  // A build finished between our import and the watch (the server restarted during a rebuild) is not missed.
  check();

  return () => build;
}

/** The compiler's socket, which the page's live-reload script connects to (the CSP lets it). */
export function liveReloadSocket() {
  const origin = process.env.REMIX_DEV_ORIGIN;
  return origin ? [new URL(origin).origin.replace(/^http/, 'ws')] : [];
}
