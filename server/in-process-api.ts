import type { Api } from '../api/app.js';
import type { ApiDispatch } from '../app/utils/api-dispatch.server.js';

/**
 * The api answering the web tier's calls without a socket (docs/decisions/005-in-process-api.md). The request
 * helper names the fan's address in X-Forwarded-For; here it becomes the address the call comes from, so the api's
 * per-address limits count the fan whatever TRUSTED_PROXIES holds (loopback need not be trusted for it).
 */
export function inProcessApi(api: Api): ApiDispatch {
  return async (request) => {
    const headers: Record<string, string> = {};
    let clientIp = '127.0.0.1';
    for (const [name, value] of Object.entries(request.headers)) {
      if (name.toLowerCase() === 'x-forwarded-for') clientIp = value;
      else headers[name] = value;
    }
    const answer = await api.app.inject({
      method: request.method as 'GET',
      url: request.url,
      headers,
      payload: request.body,
      remoteAddress: clientIp,
    });
    return { status: answer.statusCode, body: answer.body };
  };
}
