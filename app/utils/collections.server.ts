import { json, redirect } from '@remix-run/node';
import * as z from 'zod/mini';
import { apiRequest, HttpError, isHttpError } from './api.server';
import { logoutRedirect } from './auth.server';
import { listOwnContent, readPostForm, requireOwnArtist, type MediaItem, type OwnContentItem, type PostFormRead } from './content-create.server';
import { CollectionSchema } from '#contract/content-schemas';
import { parseGuardedForm } from './form-guard.server';

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

/** The form's own fields; the items are read from their checkboxes and order inputs. */
export const CollectionFormSchema = z.pick(CollectionSchema, { title: true, description: true });

export async function listOwnCollections(token: string, username: string, signal?: AbortSignal) {
  const answer = await apiRequest<{ data: { data: OwnCollection[]; total: number } }>({
    path: `/performers/${encodeURIComponent(username)}/collections`,
    params: { limit: 100 },
    token,
    signal,
  });
  return answer.data;
}

/** One collection with its item ids in the artist's order; unknown (or someone else's) is the 404 page. */
export async function getOwnCollection(token: string, id: string, signal?: AbortSignal) {
  try {
    const answer = await apiRequest<{ data: OwnCollection & { performerId: string; items: { data: { _id: string }[]; total: number } } }>({
      path: `/collections/${encodeURIComponent(id)}`,
      params: { limit: 100 },
      token,
      signal,
    });
    return answer.data;
  } catch (error) {
    if (error instanceof HttpError && [400, 403, 404].includes(error.status)) throw new Response('Not found', { status: 404 });
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

/** Every item of the artist, whatever its state, newest first: what a collection may hold. */
export async function listPickableItems(token: string, username: string, signal?: AbortSignal): Promise<PickableItem[]> {
  const states = ['published', 'scheduled', 'draft'] as const;
  const lists = await Promise.all(states.map((state) => listOwnContent(token, username, state, { limit: 100, signal })));
  return lists
    .flatMap((list) => list.data)
    .map((item) => ({
      _id: item._id,
      title: item.title,
      typeLabel: item.typeLabel,
      state: item.state,
      thumbnailUrl: item.thumbnail?.thumbnailUrl ?? (item.media?.kind === 'image' ? item.media.thumbnailUrl : null),
    }));
}

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
  const intent = String(formData.get('intent') ?? '');
  const move = /^move-(up|down):(.+)$/.exec(intent);
  if (move) {
    const at = ids.indexOf(move[2]);
    const to = move[1] === 'up' ? at - 1 : at + 1;
    if (at >= 0 && to >= 0 && to < ids.length) [ids[at], ids[to]] = [ids[to], ids[at]];
  }
  return ids;
}

const FormValues = z.object({ coverId: z.optional(z.string()), coverName: z.optional(z.string()), removeCover: z.optional(z.string()) });

/**
 * The action of /{artist}/account/collections/new and …/{id}/edit: a multipart form (the cover streams to
 * POST /media?kind=image), or the edit page's delete form. A move intent re-shows the form with the new order;
 * save creates or replaces the collection and goes to its fan-facing page.
 */
export async function collectionFormAction({ request, artistUsername, collectionId }: { request: Request; artistUsername: string | undefined; collectionId?: string }) {
  const { token, artist } = await requireOwnArtist(request, artistUsername);
  const contentType = request.headers.get('Content-Type') ?? '';
  const fail = (error: unknown) => {
    if (isHttpError(error, 401)) return logoutRedirect(request, artist.username);
    if (isHttpError(error, 403, 404)) return new Response('Not found', { status: 404 });
    return null;
  };
  if (collectionId && contentType.startsWith('application/x-www-form-urlencoded')) {
    const form = await request.formData();
    if (form.get('intent') !== 'delete') throw new Response('Bad request', { status: 400 });
    try {
      await apiRequest({ method: 'DELETE', path: `/collections/${encodeURIComponent(collectionId)}`, token, signal: request.signal });
    } catch (error) {
      throw fail(error) ?? error;
    }
    throw redirect(`/${artist.username}/account/collections?deleted=true`);
  }
  if (!contentType.startsWith('multipart/form-data')) throw new Response('Bad request', { status: 400 });
  let read: PostFormRead;
  try {
    read = await readPostForm(request, token, { cover: 'image' });
  } catch (error) {
    throw fail(error) ?? error;
  }
  const { formData, uploadErrors } = read;
  const itemIds = chosenItems(formData);
  const files = FormValues.parse({
    coverId: formData.get('coverId') ?? undefined,
    coverName: formData.get('coverName') ?? undefined,
    removeCover: formData.get('removeCover') ?? undefined,
  });
  const coverId = files.removeCover === 'on' && !read.uploads.cover ? null : files.coverId || null;
  const keep = { itemIds, coverId, coverName: coverId ? files.coverName ?? '' : '' };
  const submission = parseGuardedForm(formData, CollectionFormSchema);
  const intent = String(formData.get('intent') ?? '');
  if (intent.startsWith('move-')) {
    return json({ result: submission.reply(), ...keep });
  }
  if (submission.status !== 'success' || Object.keys(uploadErrors).length > 0) {
    return json({ result: submission.reply({ fieldErrors: uploadErrors }), ...keep }, { status: 400 });
  }
  const body = { ...submission.value, coverId, itemIds };
  let saved: OwnCollection;
  try {
    const answer = await apiRequest<{ data: OwnCollection }>({
      method: collectionId ? 'PUT' : 'POST',
      path: collectionId ? `/collections/${encodeURIComponent(collectionId)}` : '/collections',
      body,
      token,
      signal: request.signal,
    });
    saved = answer.data;
  } catch (error) {
    const thrown = fail(error);
    if (thrown) throw thrown;
    if (error instanceof HttpError && error.status >= 400 && error.status < 500) {
      const fieldErrors: Record<string, string[]> = {};
      for (const [path, messages] of Object.entries(error.fieldErrors)) {
        const name = path === 'coverId' ? 'cover' : path.startsWith('itemIds') ? 'items' : path;
        fieldErrors[name] = [...(fieldErrors[name] ?? []), ...messages];
      }
      const result = Object.keys(fieldErrors).length ? submission.reply({ fieldErrors }) : submission.reply({ formErrors: [error.message] });
      return json({ result, ...keep }, { status: 400 });
    }
    throw error;
  }
  throw redirect(`/${artist.username}/collection/${saved._id}`);
}
