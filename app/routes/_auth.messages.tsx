import { redirect, type LoaderFunctionArgs } from '@remix-run/node';
import { apiFor } from '~/utils/api.server';
import { fetchSubscriptions, requireUser } from '~/utils/auth.server';
import { fetchConversations, messagesHref } from '~/utils/messages.server';

/**
 * /messages (ours): where the top bar's messages link goes from a page that names no artist (discover). An
 * artist goes to their inbox; a fan to the inbox under the artist they last wrote with, else their first
 * subscription, else to discover to find one.
 */
export async function loader(args: LoaderFunctionArgs) {
  const api = apiFor(args);
  const user = await requireUser(api);
  if (user.artist) throw redirect(messagesHref(user));
  const [latest] = await fetchConversations(api);
  if (latest) throw redirect(messagesHref(user, latest.recipient.username));
  const [subscription] = await fetchSubscriptions(api);
  throw redirect(subscription ? messagesHref(user, subscription.artist.username) : '/discover');
}
