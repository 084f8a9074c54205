import type { ApiErrorBody } from './api.server';

/**
 * Calls the API from the browser with the session token (the realtime connection's credential), for the few
 * interactions that should not reload the page's data: sending a message, marking a conversation read.
 */
export class ClientApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: ApiErrorBody | undefined,
  ) {
    super(body?.message ?? `HTTP ${status}`);
  }
}

export async function clientApi<T>(options: { method?: 'GET' | 'POST' | 'DELETE'; path: string; body?: unknown; token: string }) {
  const base = (window as unknown as { ENV?: { PUBLIC_API_URL?: string } }).ENV?.PUBLIC_API_URL ?? '';
  const response = await fetch(`${base}${options.path}`, {
    method: options.method ?? 'GET',
    headers: {
      Accept: 'application/json',
      Authorization: `Bearer ${options.token}`,
      ...(options.body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const body = (await response.json().catch(() => undefined)) as { data: T } | ApiErrorBody | undefined;
  if (!response.ok) throw new ClientApiError(response.status, body as ApiErrorBody | undefined);
  return (body as { data: T }).data;
}
