import type { LoaderFunctionArgs } from '@remix-run/node';
import { toVtt } from '#contract/transcript';
import { apiFor } from '~/utils/api.server';
import { getTranscript } from '~/utils/content.server';

/**
 * /{artist}/vault/{id}/captions.vtt: an item's transcript as WebVTT, the `<track kind="captions">` of its video. The
 * same rule as the item page (the api's): a fan without access, or an item without a transcript, gets 404.
 */
export async function loader(args: LoaderFunctionArgs) {
  const cues = await getTranscript(apiFor(args), args.params.id ?? '');
  if (!cues.length) throw new Response('Not found', { status: 404 });
  return new Response(toVtt(cues), {
    headers: { 'Content-Type': 'text/vtt; charset=utf-8', 'Cache-Control': 'private, no-cache' },
  });
}
