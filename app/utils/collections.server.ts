import type { Submission } from '@conform-to/react';
import { redirect, type ActionFunctionArgs } from '@remix-run/node';
import { SEARCH_MAX } from '#contract/search';
import { CollectionActionSchema, pageOfChosen, PICKER_PAGE_SIZE } from './collection-form';
import { apiFor, HttpError, isHttpError, type ApiClient } from './api.server';
import { invariantResponse, requireOwnArtist } from './auth.server';
import { readPostForm } from './content-create.server';
import { listOwnContent, type MediaItem, type OwnContentItem } from './content.server';
import { parseGuardedForm, readFormData } from './form-guard.server';
import { formReply } from './form-reply.server';

/**
 * The api calls behind the artist's collection pages (docs/content.md "Collections") and the one action of the
 * new and edit forms.
 */

export interface OwnCollection {
  _id: string;
  title: string;
  description: string;
  cover: MediaItem | null;
  itemCount: number;
  createdAt: string;
  updatedAt: string;
}

/** A page of the artist's collections, newest first, and how many there are. */
export async function listOwnCollections(api: ApiClient, username: string, page: { limit: number; offset: number }) {
  const answer = await api.get<{ data: { data: OwnCollection[]; total: number } }>(
    `/performers/${encodeURIComponent(username)}/collections`,
    {
      params: page,
    },
  );
  return answer.data;
}

/**
 * One collection with all its items in the artist's order (a page of 100 at a time: a collection holds up to 1,000,
 * and a form that showed only the first 100 would drop the rest on save); unknown (or someone else's) is the 404 page.
 */
export async function getOwnCollection(api: ApiClient, id: string) {
  type Detail = OwnCollection & { performerId: string; items: { data: OwnContentItem[]; total: number } };
  const page = (offset: number) =>
    api.get<{ data: Detail }>(`/collections/${encodeURIComponent(id)}`, { params: { limit: 100, offset }, handle: [400] });
  try {
    const { data: collection } = await page(0);
    const items = [...collection.items.data];
    while (items.length < collection.items.total) {
      const { data: next } = await page(items.length);
      if (!next.items.data.length) break;
      items.push(...next.items.data);
    }
    return { ...collection, items: { data: items, total: collection.items.total } };
  } catch (error) {
    if (isHttpError(error, 400)) throw new Response('Not found', { status: 404 });
    throw error;
  }
}

export interface PickableItem {
  _id: string;
  title: string;
  type: OwnContentItem['type'];
  typeLabel: string;
  state: OwnContentItem['state'];
  thumbnailUrl: string | null;
}

/** The picker's place: its search, its page (from 1), what that page holds and how many match. */
export interface PickerPage {
  q: string;
  page: number;
  ids: string[];
  total: number;
}

/** The form as a move, a search or a page turn left it (collectionFormAction's browse), read back from the page's address. */
export interface PickerDraft {
  title: string;
  description: string;
  coverId: string | null;
  coverName: string;
  itemIds: string[];
}

const MAX_PAGE = 1_000;

/** A page number from the address or the form: a whole number from 1 to MAX_PAGE, 1 when missing or not a number. */
const pageNumber = (value: unknown) => Math.min(MAX_PAGE, Math.max(1, Math.floor(Number(value)) || 1));

/**
 * The picker's search and page and the page of the chosen items in the page's address (`?q=&page=&cpage=`), and the
 * unsaved form a move, search or page turn carried there
 * (`title`, `description`, `coverId`, `coverName`, `items` as ids in order; present once the form was browsed).
 */
export function readPickerAddress(url: URL) {
  const search = url.searchParams;
  const q = (search.get('q') ?? '').trim().slice(0, SEARCH_MAX);
  const page = pageNumber(search.get('page'));
  const cpage = pageNumber(search.get('cpage'));
  const items = search.get('items');
  const draft: PickerDraft | null =
    items === null
      ? null
      : {
          title: search.get('title') ?? '',
          description: search.get('description') ?? '',
          coverId: search.get('coverId') || null,
          coverName: search.get('coverName') ?? '',
          itemIds: [...new Set(items.split(',').filter(Boolean))],
        };
  return { q, page, cpage, draft };
}

/** The address of the form again after a move, a search or a page turn: where it goes, and the form as it stands. */
function browseAddress(
  pathname: string,
  value: { title?: string; description?: string; coverId?: string; coverName?: string; q?: string; page?: string; cpage?: string },
  itemIds: string[],
) {
  const search = new URLSearchParams();
  if (value.q) search.set('q', value.q);
  if (value.page && value.page !== '1') search.set('page', value.page);
  if (value.cpage && value.cpage !== '1') search.set('cpage', value.cpage);
  search.set('title', value.title ?? '');
  search.set('description', value.description ?? '');
  if (value.coverId) {
    search.set('coverId', value.coverId);
    search.set('coverName', value.coverName ?? '');
  }
  search.set('items', itemIds.join(','));
  return `${pathname}?${search}`;
}

const pickable = (item: OwnContentItem): PickableItem => ({
  _id: item._id,
  title: item.title,
  type: item.type,
  typeLabel: item.typeLabel,
  state: item.state,
  thumbnailUrl: item.thumbnail?.thumbnailUrl ?? (item.media?.kind === 'image' ? item.media.thumbnailUrl : null),
});

/** A chosen item by id, or null if it is gone (deleted since it was ticked, or an address written by hand). */
async function findOwnItem(api: ApiClient, id: string) {
  try {
    return (await api.get<{ data: OwnContentItem }>(`/content/${encodeURIComponent(id)}`, { handle: [400, 403, 404] })).data;
  } catch (error) {
    if (isHttpError(error, 400, 403, 404)) return null;
    throw error;
  }
}

/**
 * What the form shows: a page of the artist's items in every state, newest first (PICKER_PAGE_SIZE of those matching
 * `q`), and the page of chosen items `chosen` wherever they are: `known` are those the page has already (a collection's
 * own items, however old); any other (ticked on another page of the picker) is read by id.
 */
async function loadPicker(
  api: ApiClient,
  username: string,
  { q, page, chosen, known = [] }: { q: string; page: number; chosen: string[]; known?: OwnContentItem[] },
): Promise<{ items: PickableItem[]; picker: PickerPage }> {
  const list = await listOwnContent(api, username, undefined, { q, limit: PICKER_PAGE_SIZE, offset: (page - 1) * PICKER_PAGE_SIZE });
  const byId = new Map([...known, ...list.data].map((item) => [item._id, item]));
  const missing = chosen.filter((id) => !byId.has(id));
  const found = await Promise.all(missing.map((id) => findOwnItem(api, id)));
  for (const item of found) if (item) byId.set(item._id, item);
  return {
    items: [...byId.values()].map(pickable),
    picker: { q, page, ids: list.data.map((item) => item._id), total: list.total },
  };
}

/**
 * What the new and edit pages show of the form: the picker's place and the unsaved form from the address, the chosen
 * items (the unsaved form's, else the saved collection's, else none), and the picker's page with the page of chosen
 * items (the saved collection's own items are not read again).
 */
export async function loadCollectionForm(api: ApiClient, username: string, url: URL, saved?: { items: OwnContentItem[] }) {
  const { q, page, cpage, draft } = readPickerAddress(url);
  const chosen = draft?.itemIds ?? saved?.items.map((item) => item._id) ?? [];
  const pageIds = pageOfChosen(chosen, cpage).ids;
  const known = saved?.items.filter((item) => pageIds.includes(item._id));
  const { items, picker } = await loadPicker(api, username, { q, page, chosen: pageIds, known });
  return { items, picker, chosen, cpage, draft };
}

const MOVE = /^move-(up|down):(.+)$/;
const TURN = /^(browse|chosen):(\d+)$/;
const ids = (value: FormDataEntryValue | null) =>
  String(value ?? '')
    .split(',')
    .filter(Boolean);

/**
 * The chosen items in their order. The form shows a page of them (`shown`, their ids), each with its box and
 * `order-{id}` number; the whole list, in order, rides along in `chosen`, so the items on other pages keep their
 * places (their number is their place). Unticked shown items leave; ticked items of the picker join (a blank number
 * goes last). Sorted by number, ties kept in the list's order; then a `move-up:{id}` / `move-down:{id}` intent swaps
 * the item with its neighbour.
 */
export function chosenItems(formData: FormData) {
  const checked = new Set(formData.getAll('item').map(String).filter(Boolean));
  const shown = new Set(ids(formData.get('shown')));
  const listed = ids(formData.get('chosen'));
  const number = (id: string) => {
    const raw = String(formData.get(`order-${id}`) ?? '').trim();
    return raw === '' || !Number.isFinite(Number(raw)) ? Number.POSITIVE_INFINITY : Number(raw);
  };
  const kept = listed.flatMap((id, index) =>
    !shown.has(id) ? [{ id, order: index + 1, index }] : checked.has(id) ? [{ id, order: number(id), index }] : [],
  );
  const added = [...checked]
    .filter((id) => !listed.includes(id))
    .map((id, index) => ({ id, order: number(id), index: listed.length + index }));
  const ranked = [...kept, ...added].sort((a, b) => a.order - b.order || a.index - b.index);
  const order = [...new Set(ranked.map((r) => r.id))];
  const move = MOVE.exec(String(formData.get('intent') ?? ''));
  if (move) {
    const at = order.indexOf(move[2]);
    const to = move[1] === 'up' ? at - 1 : at + 1;
    if (at >= 0 && to >= 0 && to < order.length) [order[at], order[to]] = [order[to], order[at]];
  }
  return order;
}

/** Whether the picker's search box holds other words than the page was shown with. */
const typedSearch = (formData: FormData) => String(formData.get('q') ?? '').trim() !== String(formData.get('shownQ') ?? '').trim();

/**
 * Where a move, a search or a page turn leaves the form: the picker's search and page (a new search starts at its first
 * page) and the page of the chosen items (`browse:{page}` turns the picker's, `chosen:{page}` the chosen items').
 */
function nextPlace(formData: FormData, intent: string) {
  const turn = TURN.exec(intent);
  const q = String(formData.get('q') ?? '').trim();
  const current = (name: string) => String(pageNumber(formData.get(name)));
  return {
    q,
    page: typedSearch(formData) ? '1' : turn?.[1] === 'browse' ? turn[2] : current('page'),
    cpage: turn?.[1] === 'chosen' ? turn[2] : current('cpage'),
  };
}

/**
 * The action of /{artist}/account/collections/new and …/{id}/edit (CollectionActionSchema): the multipart collection
 * form (the cover streams to POST /media?kind=image), or the edit page's delete button. A move, a search or a page turn
 * shows the form again, the unsaved form in the address (the cover uploaded first, so it is kept); save creates or
 * replaces the collection and goes to its fan-facing page.
 */
export async function collectionFormAction(args: ActionFunctionArgs, collectionId?: string) {
  const { request, params } = args;
  const api = apiFor(args);
  const { artist } = await requireOwnArtist(api, params.artistUsername);
  const { formData, uploads, uploadErrors } = (request.headers.get('Content-Type') ?? '').startsWith('multipart/form-data')
    ? await readPostForm(api, request, { cover: 'image' })
    : { formData: await readFormData(request), uploads: {}, uploadErrors: {} };
  // The chosen items (a move applied), the cover kept or not: written into the form, so that a reply shows them.
  const itemIds = chosenItems(formData);
  formData.delete('itemIds');
  itemIds.forEach((id, index) => formData.set(`itemIds[${index}]`, id));
  if (formData.get('removeCover') === 'on' && !uploads.cover) formData.delete('coverId');
  // A move, a search or a page turn shows the form again (a redirect with the form in the address). Enter in the
  // picker's search box presses the form's default button (save): words typed there since the page was shown are a
  // search, not a save.
  const intent = String(formData.get('intent') ?? '');
  if (MOVE.test(intent) || TURN.test(intent) || (intent === 'save' && typedSearch(formData))) {
    const place = nextPlace(formData, intent);
    formData.set('intent', 'browse');
    formData.set('q', place.q);
    formData.set('page', place.page);
    formData.set('cpage', place.cpage);
  }
  const submission = parseGuardedForm(formData, CollectionActionSchema);
  if (submission.status !== 'success' || Object.keys(uploadErrors).length > 0) {
    // A form that names no intent we know is not one of our pages' forms.
    if (submission.status !== 'success' && submission.error?.intent) throw new Response('Bad request', { status: 400 });
    return formReply(submission, { fieldErrors: uploadErrors });
  }
  const value = submission.value;
  switch (value.intent) {
    case 'delete':
      invariantResponse(collectionId, 'Bad request', { status: 400 });
      await api.delete(`/collections/${encodeURIComponent(collectionId)}`);
      return redirect(`/${artist.username}/account/collections?deleted=true`);
    case 'browse':
      return redirect(browseAddress(new URL(request.url).pathname, value, itemIds));
    case 'save':
    case undefined: {
      const body = { title: value.title, description: value.description, coverId: value.coverId || null, itemIds };
      return saveCollection(api, artist.username, submission, body, collectionId);
    }
  }
}

/** Creates the collection, or replaces `collectionId`; the api's refusal comes back on the form's fields. */
async function saveCollection<Output>(
  api: ApiClient,
  artistUsername: string,
  submission: Submission<unknown, string[], Output>,
  body: { title: string; description: string; coverId: string | null; itemIds: string[] },
  collectionId?: string,
) {
  try {
    const answer = collectionId
      ? await api.put<{ data: OwnCollection }>(`/collections/${encodeURIComponent(collectionId)}`, body)
      : await api.post<{ data: OwnCollection }>('/collections', body);
    return redirect(`/${artistUsername}/collection/${answer.data._id}`);
  } catch (error) {
    if (!(error instanceof HttpError) || error.status >= 500) throw error;
    const fieldErrors: Record<string, string[]> = {};
    for (const [path, messages] of Object.entries(error.fieldErrors)) {
      const name = path === 'coverId' ? 'cover' : path.startsWith('itemIds') ? 'items' : path;
      fieldErrors[name] = [...(fieldErrors[name] ?? []), ...messages];
    }
    return formReply(submission, Object.keys(fieldErrors).length ? { fieldErrors } : { formErrors: [error.message] });
  }
}
