import { httpTransport, nodeStream, type ApiTransport } from '../app/utils/api-transport.server.js';

/** What of the api the in-process transport uses: Fastify's inject (a narrow view, so tests can stand in for it). */
interface InjectableApi {
  app: {
    inject(options: {
      method: string;
      url: string;
      headers: Record<string, string>;
      payload?: string | NodeJS.ReadableStream;
      remoteAddress: string;
    }): PromiseLike<{ statusCode: number; body: string }>;
  };
}

/**
 * How the web tier reaches the api: in this process when both run in it and API_URL is left at our own api (the
 * same routes, hooks and answers through Fastify's inject, without two HTTP stacks: docs/decisions/005), else HTTP.
 */
export function webApiTransport(config: { apiUrl: string; apiPort: number }, api: InjectableApi | undefined): ApiTransport {
  if (api && config.apiUrl === `http://127.0.0.1:${config.apiPort}`) return inProcess(api);
  return httpTransport(config.apiUrl);
}

/**
 * The api client names the browser's address in X-Forwarded-For; here it becomes the address the call comes from,
 * so the api's per-address limits count the fan whatever TRUSTED_PROXIES holds (loopback need not be trusted).
 */
function inProcess(api: InjectableApi): ApiTransport {
  return ({ method, url, headers: given, body, signal }) => {
    signal.throwIfAborted();
    const headers: Record<string, string> = {};
    let remoteAddress = '127.0.0.1';
    for (const [name, value] of Object.entries(given)) {
      if (name.toLowerCase() === 'x-forwarded-for') remoteAddress = value;
      else headers[name] = value;
    }
    const answered = Promise.resolve(
      api.app.inject({ method, url, headers, payload: body instanceof ReadableStream ? nodeStream(body) : body, remoteAddress }),
    ).then((answer) => ({ status: answer.statusCode, text: answer.body }));
    // inject cannot be called off: the page stops waiting for it instead.
    const aborted = new Promise<never>((_, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true }));
    return Promise.race([answered, aborted]);
  };
}
