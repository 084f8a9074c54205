import { Form, useNavigation } from '@remix-run/react';
import type { ReactNode } from 'react';

/** The accent button these forms show (the artist header adds a ring offset for its background). */
export const START_BUTTON =
  'rounded-full bg-accent px-5 py-2.5 text-base font-bold text-navy hover:bg-accent/90 focus:outline-none focus-visible:ring-2 focus-visible:ring-white disabled:opacity-70';

/**
 * Opens (or reopens) a conversation and goes there: a plain form posted to the messages page's action
 * (intent=start), so it works without JavaScript. A fan's form names no one: it is the artist of the page. The
 * artist's form names the subscriber (fanId). While it is on its way, that one button is disabled.
 */
export function StartConversationForm({
  artistUsername,
  fanId,
  label,
  className,
  children,
}: {
  artistUsername: string;
  fanId?: string;
  /** The button's accessible name, when its text alone does not say whom it writes to. */
  label?: string;
  className: string;
  children: ReactNode;
}) {
  const navigation = useNavigation();
  const sending = navigation.state !== 'idle' ? navigation.formData : undefined;
  const pending = sending?.get('intent') === 'start' && sending.get('fanId') === (fanId ?? null);
  return (
    <Form method="post" action={`/${artistUsername}/account/messages?index`}>
      <input type="hidden" name="intent" value="start" />
      {fanId ? <input type="hidden" name="fanId" value={fanId} /> : null}
      <button type="submit" disabled={pending} aria-label={label} className={className}>
        {children}
      </button>
    </Form>
  );
}
