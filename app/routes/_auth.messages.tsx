import { redirect, type LoaderFunctionArgs } from '@remix-run/node';
import { fetchSubscriptions, requireUser } from '~/utils/auth.server';
import { messagesHref } from '~/utils/messages';
import { fetchConversations } from '~/utils/messages.server';

/**
 * /messages (ours): where the top bar's messages link goes from a page that names no artist (discover). An
 * artist goes to their inbox; a fan to the inbox under the artist they last wrote with, else their first
 * subscription, else to discover to find one.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const { user, token } = await requireUser(request);
  if (user.artist) throw redirect(messagesHref(user));
  const [latest] = await fetchConversations(token, request.signal);
  if (latest) throw redirect(messagesHref(user, latest.recipient.username));
  const [subscription] = await fetchSubscriptions(token, request.signal);
  throw redirect(subscription ? messagesHref(user, subscription.artist.username) : '/discover');
}
