import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node';
import * as z from 'zod/mini';
import { ArtistProfileSchema } from '#contract/artist-profile';
import type { MoneySettings } from '#contract/earnings';
import type { SubscriptionDetail } from '#contract/payments';
import type { ArtistResponse } from '#contract/users';
import { apiFor, isHttpError, type ApiClient } from '~/utils/api.server';
import { invariantResponse, isOwnArtist, requireSubscriber } from '~/utils/auth.server';
import { readPostForm, type PostFormRead } from '~/utils/content-create.server';
import { parseGuardedForm, readFormData } from '~/utils/form-guard.server';
import { apiErrorReply, formReply } from '~/utils/form-reply.server';
import { fetchNotificationPreferences, saveNotificationPreferences } from '~/utils/notifications.server';
import { IMAGE_SLOTS } from './image-slots';
import { NotificationChoicesSchema } from './notification-choices';

/** A subscriber as GET /performers/me/subscribers lists them. */
export interface Subscriber {
  _id: string;
  username: string;
  name: string;
  avatar: string;
  startedAt: string;
  type: string;
}

/** The fan's membership, or the artist's own fan club: the artist's subscribers and the welcome-video switch. */
export async function loadAccount(args: LoaderFunctionArgs) {
  const api = apiFor(args);
  const { user, artist } = await requireSubscriber(api, args.params.artistUsername);
  const saved = new URL(args.request.url).searchParams.get('saved');
  if (isOwnArtist(user, artist)) {
    const [subscribers, raw, money] = await Promise.all([
      api.get<{ data: { data: Subscriber[]; total: number } }>('/performers/me/subscribers', { params: { limit: 10 } }),
      // The switch itself (the mapped artist only says whether a video shows).
      api.get<{ data: ArtistResponse }>(`/performers/${encodeURIComponent(artist.username)}`),
      // The currency (fixed once a fan has paid) and the free trial.
      api.get<{ data: MoneySettings }>('/performers/me/money'),
    ]);
    return {
      mode: 'artist' as const,
      artist,
      saved,
      subscribers: subscribers.data.data,
      total: subscribers.data.total,
      welcomeVideoOn: raw.data.activateWelcomeVideo ?? false,
      keepPaidItemsOn: raw.data.keepPaidItems ?? true,
      money: money.data,
    };
  }
  const [subscription, notifications] = await Promise.all([
    api.get<{ data: SubscriptionDetail }>(`/subscriptions/performers/${encodeURIComponent(artist.id)}`),
    fetchNotificationPreferences(api, artist.id),
  ]);
  return { mode: 'fan' as const, artist, saved, subscription: subscription.data, notifications };
}

const id = z.string().check(z.minLength(1));

/**
 * The page's four forms, told apart by `intent`: the fan's renewal switch and notification choices, the artist's
 * profile, and the artist's images (whose files arrive as uploads beside the form, see readAccountForm).
 */
const AccountIntentSchema = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('auto-renew'), subscriptionId: id, autoRenew: z.enum(['true', 'false']) }),
  NotificationChoicesSchema,
  z.extend(ArtistProfileSchema, { intent: z.literal('profile') }),
  z.object({ intent: z.literal('images') }),
]);

export type AccountIntent = z.output<typeof AccountIntentSchema>['intent'];

const IMAGE_RULES = Object.fromEntries(IMAGE_SLOTS.map((slot) => [slot.name, 'image' as const]));

const FAN_INTENTS: readonly AccountIntent[] = ['auto-renew', 'notifications'];

/**
 * Turns the renewal off or on, saves the notification choices, saves the profile, or saves new images. Success redirects back with what was saved
 * (post/redirect/get); a refusal, of the form or of the api, is the form's submission reply.
 */
export async function accountAction(args: ActionFunctionArgs) {
  const api = apiFor(args);
  const { user, artist } = await requireSubscriber(api, args.params.artistUsername);
  const own = isOwnArtist(user, artist);
  const { formData, uploads, uploadErrors } = await readAccountForm(api, args.request, own);
  const submission = parseGuardedForm(formData, AccountIntentSchema);
  if (submission.status !== 'success') {
    // A form that names no intent we know is not one of this page's forms.
    if (submission.error?.intent) throw new Response('Bad request', { status: 400 });
    return formReply(submission);
  }
  const value = submission.value;
  // The profile and the images are the artist's own; the renewal and the notifications are a fan's.
  invariantResponse(own !== FAN_INTENTS.includes(value.intent), 'Bad request', { status: 400 });
  const here = `/${artist.username}/account`;
  try {
    switch (value.intent) {
      case 'auto-renew':
        await api.put(
          `/subscriptions/${encodeURIComponent(value.subscriptionId)}/auto-renew`,
          { autoRenew: value.autoRenew === 'true' },
          { handle: [404] },
        );
        return redirect(`${here}?saved=renewal`);
      case 'notifications': {
        const { intent: _intent, ...choices } = value;
        await saveNotificationPreferences(api, artist.id, choices);
        return redirect(`${here}?saved=notifications#notifications-title`);
      }
      case 'profile': {
        const { intent: _intent, ...profile } = value;
        // The form always shows the switch: a box left unticked is sent as no field, which means off.
        await api.put('/performers/me', { ...profile, keepPaidItems: profile.keepPaidItems ?? false });
        return redirect(`${here}?saved=profile`);
      }
      case 'images': {
        if (Object.keys(uploadErrors).length) return formReply(submission, { fieldErrors: uploadErrors });
        // The new media's ids come from the uploads themselves, never from a field the browser could fill in.
        const chosen = Object.fromEntries(Object.entries(uploads).map(([slot, upload]) => [slot, upload.id]));
        if (!Object.keys(chosen).length) return formReply(submission, { formErrors: ['Choose at least one image to upload.'] });
        await api.put('/performers/me/images', chosen);
        return redirect(`${here}?saved=images`);
      }
    }
  } catch (error) {
    if (!isHttpError(error)) throw error;
    return apiErrorReply(submission, error);
  }
}

/**
 * The images form is the page's one multipart form, and the artist's alone: its files stream to
 * POST /media?kind=image as they arrive. Every other form is a plain one.
 */
async function readAccountForm(api: ApiClient, request: Request, own: boolean): Promise<PostFormRead> {
  if (!(request.headers.get('Content-Type') ?? '').startsWith('multipart/form-data')) {
    return { formData: await readFormData(request), uploads: {}, uploadErrors: {} };
  }
  invariantResponse(own, 'Bad request', { status: 400 });
  return readPostForm(api, request, IMAGE_RULES);
}
