import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node';
import * as z from 'zod/mini';
import { apiFor, isHttpError } from '~/utils/api.server';
import { requireArtist } from '~/utils/auth.server';
import { readPostForm } from '~/utils/content-create.server';
import { parseGuardedForm } from '~/utils/form-guard.server';
import { apiErrorReply, formReply } from '~/utils/form-reply.server';
import { DEFAULT_AVATAR } from '~/utils/mappers';
import { requireSetUpArtist } from '~/utils/setup.server';
import type { ArtSlot } from './slots';

/**
 * The setup's third step: the club's picture and cover, both optional (the studio has them, and the hero and
 * headline images, whenever the artist wants). An artist's page only: for anyone else it does not exist.
 */
export async function loadArt(args: LoaderFunctionArgs) {
  const api = apiFor(args);
  const artist = await requireArtist(api, (await requireSetUpArtist(api)).username);
  // The stand-in avatar is no picture of theirs: only an image they chose is shown as theirs.
  const avatar = artist.avatarUrl === DEFAULT_AVATAR ? null : artist.avatarUrl;
  return { current: { avatar, cover: artist.coverUrl } satisfies Record<ArtSlot, string | null> };
}

export async function artAction(args: ActionFunctionArgs) {
  const api = apiFor(args);
  await requireSetUpArtist(api);
  // Each chosen file streams to POST /media as it arrives; a field left empty keeps what the club has.
  const { formData, uploads, uploadErrors } = await readPostForm(api, args.request, { avatar: 'image', cover: 'image' });
  const submission = parseGuardedForm(formData, z.object({}));
  if (Object.keys(uploadErrors).length) return formReply(submission, { fieldErrors: uploadErrors });
  const chosen = Object.fromEntries(Object.entries(uploads).map(([slot, upload]) => [slot, upload.id]));
  if (Object.keys(chosen).length) {
    try {
      await api.put('/performers/me/images', chosen, { handle: [400] });
    } catch (error) {
      if (!isHttpError(error)) throw error;
      return apiErrorReply(submission, error);
    }
  }
  throw redirect('/setup/payouts', 303);
}
