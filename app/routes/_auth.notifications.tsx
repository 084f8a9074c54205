import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Form, Link, useLoaderData, useNavigation, useRevalidator } from '@remix-run/react';
import * as z from 'zod/mini';
import { NOTIFICATIONS_PAGE_SIZE, type NotificationResponse } from '#contract/notifications';
import { NotificationEvent } from '#contract/realtime';
import { EmptyNote, Pager } from '~/components/content-card';
import { LocalTime } from '~/components/local-time';
import { apiFor } from '~/utils/api.server';
import { invariantResponse, requireUser, safeRedirect } from '~/utils/auth.server';
import { readOffset } from '~/utils/content-params';
import { parseGuardedForm, readFormData } from '~/utils/form-guard.server';
import { DEFAULT_AVATAR } from '~/utils/mappers';
import { listNotifications, markAllNotificationsRead, markNotificationRead } from '~/utils/notifications.server';
import { useRealtimeEvent } from '~/utils/realtime';

export const meta: MetaFunction = () => [{ title: 'Notifications | Stagedoor' }];

/**
 * /notifications (docs/notifications.md "What the fan sees"): what the artists the fan subscribes to
 * posted, newest first, paged by `offset`. Opening one marks it read and goes to the item; "Mark all as read" reads
 * the lot. Both are plain forms, so the page works without JavaScript; with it, a new notification shows at once.
 */
export async function loader(args: LoaderFunctionArgs) {
  const api = apiFor(args);
  const offset = readOffset(new URL(args.request.url).searchParams);
  const [, page] = await Promise.all([requireUser(api), listNotifications(api, offset)]);
  return { notifications: page.data, total: page.total, unread: page.unread, offset };
}

const NotificationIntentSchema = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('open'), id: z.string().check(z.minLength(1), z.maxLength(100)), to: z.string() }),
  z.object({ intent: z.literal('read-all'), offset: z.optional(z.string()) }),
]);

/**
 * intent=open marks one read and goes to its item (a notification that is not the viewer's is left alone, and the
 * item's page decides what they may see); intent=read-all reads them all and comes back to the same page.
 */
export { refreshWhenBackOnline as clientLoader } from '~/utils/realtime';

export async function action(args: ActionFunctionArgs) {
  const api = apiFor(args);
  await requireUser(api);
  const submission = parseGuardedForm(await readFormData(args.request), NotificationIntentSchema);
  invariantResponse(submission.status === 'success', 'Bad request', { status: 400 });
  const value = submission.value;
  switch (value.intent) {
    case 'open':
      await markNotificationRead(api, value.id);
      return redirect(safeRedirect(value.to, '/notifications'));
    case 'read-all': {
      await markAllNotificationsRead(api);
      const offset = readOffset(new URLSearchParams({ offset: value.offset ?? '' }));
      return redirect(offset ? `/notifications?offset=${offset}` : '/notifications');
    }
  }
}

export default function Notifications() {
  const { notifications, total, unread, offset } = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  const revalidator = useRevalidator();
  // A new one belongs at the top of the first page; on later pages it would only shift the rows under the reader.
  useRealtimeEvent(NotificationEvent.created, () => {
    if (offset === 0 && revalidator.state === 'idle') revalidator.revalidate();
  });
  const readingAll = navigation.state !== 'idle' && navigation.formData?.get('intent') === 'read-all';
  return (
    <div className="mx-auto w-full max-w-3xl px-4 pb-20 pt-8 sm:px-6 sm:pt-12">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-3xl font-extrabold tracking-tight text-white sm:text-5xl">Notifications</h1>
          <p className="mt-3 text-lg text-white/85">
            {total === 0 ? 'New posts from the artists you follow.' : unread ? `${unread} unread` : 'You are all caught up.'}
          </p>
        </div>
        {unread ? (
          <Form method="post">
            <input type="hidden" name="intent" value="read-all" />
            <input type="hidden" name="offset" value={offset} />
            <button
              type="submit"
              disabled={readingAll}
              className="rounded-full border border-white/30 px-4 py-2 text-base font-semibold text-white hover:border-accent hover:text-accent focus:outline-none focus-visible:ring-2 focus-visible:ring-accent disabled:opacity-70"
            >
              Mark all as read
            </button>
          </Form>
        ) : null}
      </div>

      <section aria-labelledby="notifications-title" className="mt-8">
        <h2 id="notifications-title" className="sr-only">
          Your notifications
        </h2>
        {notifications.length ? (
          <ul className="divide-y divide-white/10 overflow-hidden rounded-2xl bg-navy-light ring-1 ring-white/10">
            {notifications.map((notification) => (
              <li key={notification._id}>
                <NotificationRow notification={notification} />
              </li>
            ))}
          </ul>
        ) : (
          <EmptyNote>
            <p className="text-xl font-semibold text-white">No notifications yet</p>
            <p className="mt-2 text-base text-white/80">
              When an artist you subscribe to posts something new, it will show up here. You choose how each artist reaches you on their
              account page.
            </p>
            <Link
              to="/discover"
              className="mt-4 inline-block rounded text-base font-semibold text-accent underline-offset-4 hover:underline focus:outline-none focus-visible:ring-2 focus-visible:ring-accent"
            >
              Discover artists
            </Link>
          </EmptyNote>
        )}
        <Pager
          offset={offset}
          limit={NOTIFICATIONS_PAGE_SIZE}
          total={total}
          label="Notification pages"
          hrefFor={(next) => (next ? `/notifications?offset=${next}` : '/notifications')}
        />
      </section>
    </div>
  );
}

const rowClass = 'flex w-full items-center gap-4 px-4 py-4 text-left hover:bg-white/5 focus:outline-none focus-visible:bg-white/10 sm:px-6';

/**
 * An unread notification is a button of a form that marks it read on the way to the item (no JavaScript needed); one
 * already read is a plain link there.
 */
function NotificationRow({ notification }: { notification: NotificationResponse }) {
  const body = <NotificationBody notification={notification} />;
  if (notification.read) {
    return (
      <Link to={notification.path} className={rowClass}>
        {body}
      </Link>
    );
  }
  return (
    <Form method="post">
      <input type="hidden" name="intent" value="open" />
      <input type="hidden" name="id" value={notification._id} />
      <input type="hidden" name="to" value={notification.path} />
      <button type="submit" className={`${rowClass} bg-white/[0.04]`}>
        {body}
      </button>
    </Form>
  );
}

function NotificationBody({ notification }: { notification: NotificationResponse }) {
  const { performer, item, read, createdAt } = notification;
  return (
    <>
      <img
        src={performer.avatar || DEFAULT_AVATAR}
        alt=""
        width={48}
        height={48}
        className="h-12 w-12 shrink-0 rounded-full object-cover"
      />
      <span className="min-w-0 flex-1">
        <span className="flex items-baseline justify-between gap-3">
          <span className={`truncate text-base ${read ? 'text-white/80' : 'font-semibold text-white'}`}>{performer.name}</span>
          <span className="shrink-0 text-sm text-white/70">
            <LocalTime iso={createdAt} style="short" />
          </span>
        </span>
        <span className={`mt-0.5 block truncate text-base ${read ? 'text-white/75' : 'font-bold text-white'}`}>{item.title}</span>
        <span className="mt-1 inline-block rounded-full bg-white/10 px-2 py-0.5 text-xs font-semibold uppercase tracking-wide text-white/80">
          {item.typeLabel}
        </span>
      </span>
      {read ? null : (
        <span className="flex shrink-0 items-center">
          <span className="h-2.5 w-2.5 rounded-full bg-accent" aria-hidden="true" />
          <span className="sr-only">Unread</span>
        </span>
      )}
    </>
  );
}
