import type { Submission } from '@conform-to/react';
import { redirect, type ActionFunctionArgs } from '@remix-run/node';
import { CollectionActionSchema } from './collection-form';
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
  typeLabel: string;
  state: OwnContentItem['state'];
  thumbnailUrl: string | null;
}

/**
 * What the artist can put in a collection: the newest 100 items of each state, and always the items already in it
 * (`inCollection`), however old, so editing a collection never loses one.
 */
export async function listPickableItems(api: ApiClient, username: string, inCollection: OwnContentItem[] = []): Promise<PickableItem[]> {
  const states = ['published', 'scheduled', 'draft'] as const;
  const lists = await Promise.all(states.map((state) => listOwnContent(api, username, state, { limit: 100 })));
  const newest = lists.flatMap((list) => list.data);
  const listed = new Set(newest.map((item) => item._id));
  return [...newest, ...inCollection.filter((item) => !listed.has(item._id))].map((item) => ({
    _id: item._id,
    title: item.title,
    typeLabel: item.typeLabel,
    state: item.state,
    thumbnailUrl: item.thumbnail?.thumbnailUrl ?? (item.media?.kind === 'image' ? item.media.thumbnailUrl : null),
  }));
}

const MOVE = /^move-(up|down):(.+)$/;

/**
 * The chosen items in their order: the checked `item` boxes, sorted by each one's `order-{id}` number (an empty or
 * unreadable number goes last), ties kept in the list's order. A `move-up:{id}` / `move-down:{id}` intent swaps the
 * item with its neighbour first.
 */
export function chosenItems(formData: FormData) {
  const checked = formData.getAll('item').map(String).filter(Boolean);
  const ranked = checked.map((id, index) => {
    const raw = String(formData.get(`order-${id}`) ?? '').trim();
    const order = raw === '' || !Number.isFinite(Number(raw)) ? Number.POSITIVE_INFINITY : Number(raw);
    return { id, order, index };
  });
  ranked.sort((a, b) => a.order - b.order || a.index - b.index);
  const ids = [...new Set(ranked.map((r) => r.id))];
  const move = MOVE.exec(String(formData.get('intent') ?? ''));
  if (move) {
    const at = ids.indexOf(move[2]);
    const to = move[1] === 'up' ? at - 1 : at + 1;
    if (at >= 0 && to >= 0 && to < ids.length) [ids[at], ids[to]] = [ids[to], ids[at]];
  }
  return ids;
}

/**
 * The action of /{artist}/account/collections/new and …/{id}/edit (CollectionActionSchema): the multipart collection
 * form (the cover streams to POST /media?kind=image), or the edit page's delete button. A move shows the form again in
 * the new order; save creates or replaces the collection and goes to its fan-facing page.
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
  if (MOVE.test(String(formData.get('intent') ?? ''))) formData.set('intent', 'move');
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
    case 'move':
      return formReply(submission, {}, 200);
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
