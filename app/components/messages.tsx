import { Link } from '@remix-run/react';
import { conversationHref, type Conversation } from '~/utils/messages';
import { dayLabel, LocalTime } from './local-time';
import { useHydrated } from './use-hydrated';

/**
 * The line between two days of a conversation. Grouped by UTC days on the server and by the viewer's own once
 * hydrated (the first browser render still matches the server's).
 */
export function DaySeparator({ iso }: { iso: string }) {
  const hydrated = useHydrated();
  return (
    <li className="flex items-center gap-3 py-2" data-testid="day">
      <span aria-hidden="true" className="h-px flex-1 bg-white/15" />
      <span className="text-sm font-semibold text-white/70">{dayLabel(iso, hydrated ? undefined : 'UTC', new Date())}</span>
      <span aria-hidden="true" className="h-px flex-1 bg-white/15" />
    </li>
  );
}

export function UnreadBadge({ count }: { count: number }) {
  if (!count) return null;
  return (
    <span className="min-w-[1.5rem] rounded-full bg-accent px-1.5 text-center text-sm font-bold leading-6 text-navy">
      <span className="sr-only">, </span>
      {count > 99 ? '99+' : count}
      <span className="sr-only"> unread</span>
    </span>
  );
}

/** The conversation list: recipient, last message and its time, unread badge; newest activity first. */
export function ConversationList({
  conversations,
  viewer,
}: {
  conversations: Conversation[];
  viewer: { artist: boolean; username: string };
}) {
  return (
    <ul className="divide-y divide-white/10 overflow-hidden rounded-2xl bg-navy-light ring-1 ring-white/10" aria-label="Conversations">
      {conversations.map((conversation) => (
        <li key={conversation.id}>
          <Link
            to={conversationHref(viewer, conversation)}
            className="flex items-center gap-4 px-4 py-4 hover:bg-white/5 focus:outline-none focus-visible:bg-white/10 sm:px-6"
          >
            <img
              src={conversation.recipient.avatarUrl}
              alt=""
              width={48}
              height={48}
              className="h-12 w-12 shrink-0 rounded-full object-cover"
            />
            <div className="min-w-0 flex-1">
              <div className="flex items-baseline justify-between gap-3">
                <p
                  className={`truncate text-base ${conversation.numUnreadMessages ? 'font-bold text-white' : 'font-semibold text-white/90'}`}
                >
                  {conversation.recipient.name || conversation.recipient.username}
                </p>
                {conversation.lastMessage ? (
                  <p className="shrink-0 text-sm text-white/70">
                    <LocalTime iso={new Date(conversation.lastMessage.utcCreationTimestamp).toISOString()} style="short" />
                  </p>
                ) : null}
              </div>
              <div className="mt-0.5 flex items-center justify-between gap-3">
                <p className={`truncate text-sm ${conversation.numUnreadMessages ? 'text-white' : 'text-white/70'}`}>
                  {conversation.lastMessage?.content}
                </p>
                <UnreadBadge count={conversation.numUnreadMessages} />
              </div>
            </div>
          </Link>
        </li>
      ))}
    </ul>
  );
}
