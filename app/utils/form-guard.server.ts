/**
 * What every route action's form goes through before conform reads it (found by
 * tests/e2e/hostile-actions.spec.ts). Conform builds nested values from field names, so a name like
 * `usernameOrEmail[99999999]` made a list of a hundred million entries: one anonymous post to /login pinned the
 * process (web and api) and grew it past 5 GB. And its reserved fields (`__intent__`, `__state__`) hold JSON that it
 * parses as it finds it, so a form with anything else there was a 500.
 */
import type * as z from 'zod/mini';
import { parseForm } from './form-schema';

/** Far past any list a page sends (a poll has at most 20 answers, a collection at most 1000 items). */
export const MAX_LIST_INDEX = 1000;

const INTENT = '__intent__';
const STATE = '__state__';

/**
 * Throws a 400 for a field name with a list index past MAX_LIST_INDEX, and drops a reserved field that is not
 * what conform itself would send (the form is then read as a plain submit). Returns the same FormData.
 */
export function guardForm(formData: FormData): FormData {
  for (const name of new Set(formData.keys())) {
    if (indicesOf(name).some((index) => index > MAX_LIST_INDEX)) throw new Response('This form has too many entries.', { status: 400 });
  }
  const intent = formData.get(INTENT);
  if (intent !== null && !isIntent(intent, formData)) formData.delete(INTENT);
  const state = formData.get(STATE);
  if (state !== null && parseJson(state) === NOT_JSON) formData.delete(STATE);
  return formData;
}

const FORM_TYPES = ['application/x-www-form-urlencoded', 'multipart/form-data'];

/**
 * How every route action reads its request body: only a form is one (a body that is not, or a broken one, is the
 * client's mistake: 415 or 400 with a sentence, never a 500), and its fields are guarded (above).
 */
export async function readFormData(request: Request): Promise<FormData> {
  const type = (request.headers.get('Content-Type') ?? '').split(';')[0].trim().toLowerCase();
  if (!FORM_TYPES.includes(type)) {
    throw new Response('This page takes a form: send it as application/x-www-form-urlencoded or multipart/form-data.', {
      status: 415,
    });
  }
  try {
    return guardForm(await request.formData());
  } catch (error) {
    if (error instanceof Response) throw error;
    throw unreadableForm();
  }
}

/** A form whose body breaks off or does not parse. */
export function unreadableForm() {
  return new Response('This form could not be read. Please send it again.', { status: 400 });
}

/** How every route action reads its form: guarded (above), then checked against the page's schema (form-schema.ts). */
export function parseGuardedForm<Schema extends z.ZodMiniType>(formData: FormData, schema: Schema) {
  return parseForm(guardForm(formData), schema);
}

function indicesOf(name: string) {
  return [...name.matchAll(/\[(\d+)\]/g)].map((match) => Number(match[1]));
}

/** A field name as conform reads it (`a.b[0].c`), within the list bound and without the keys it refuses. */
function isFieldPath(name: string) {
  if (!/^[^.[\]]+(?:\.[^.[\]]+|\[\d+\])*$/.test(name)) return false;
  if (name.split(/[.[\]]/).some((key) => key === '__proto__' || key === 'constructor')) return false;
  return indicesOf(name).every((index) => index <= MAX_LIST_INDEX);
}

const NOT_JSON = Symbol('not JSON');

function parseJson(value: FormDataEntryValue): unknown {
  if (typeof value !== 'string') return NOT_JSON;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return NOT_JSON;
  }
}

/** Intents that change a list: conform throws when the field they name holds anything else. */
const LIST_INTENTS = new Set(['insert', 'remove', 'reorder']);

/**
 * An intent as conform serialises it: { type, payload: {…} }, whose list index and field name stay within bounds,
 * and whose list intents name a field that the form sends as a list (only `name[i]…` keys), or not at all.
 */
function isIntent(value: FormDataEntryValue, formData: FormData) {
  const intent = parseJson(value);
  if (!intent || typeof intent !== 'object') return false;
  const { type, payload } = intent as { type?: unknown; payload?: unknown };
  if (typeof type !== 'string' || !payload || typeof payload !== 'object') return false;
  const { name, index, from, to } = payload as Record<string, unknown>;
  if (name !== undefined && (typeof name !== 'string' || !isFieldPath(name))) return false;
  if (LIST_INTENTS.has(type)) {
    if (typeof name !== 'string') return false;
    for (const key of formData.keys()) if (key === name || key.startsWith(`${name}.`)) return false;
  }
  return [index, from, to].every((n) => n === undefined || (typeof n === 'number' && Number.isInteger(n) && n >= 0 && n <= MAX_LIST_INDEX));
}
