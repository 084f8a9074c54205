import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The request or job a piece of work belongs to, wherever it runs: the api's log lines name its id without every
 * function being handed it, and a job sent while a request is answered carries the request's id into its own lines.
 */
export interface WorkContext {
  requestId: string;
}

const current = new AsyncLocalStorage<WorkContext>();

/** Runs `work` as part of the request (or job) with this id. */
export function runAs<T>(context: WorkContext, work: () => T): T {
  return current.run(context, work);
}

/** The id of the request (or job's request) under way, if any. */
export function currentRequestId(): string | undefined {
  return current.getStore()?.requestId;
}
