import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import {
  Links,
  LiveReload,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  isRouteErrorResponse,
  useLoaderData,
  useMatches,
  useRouteError,
  useRouteLoaderData,
} from '@remix-run/react';
import type { ReactNode } from 'react';
import { ErrorPage } from './components/error-page';
import { Footer } from './components/footer';
import { PaymentProvider } from './components/payment-provider';
import { ProgressBar } from './components/progress-bar';
import { TopBar } from './components/top-bar';
import stylesheet from './tailwind.css';
import { apiFor } from './utils/api.server';
import { getOptionalUser } from './utils/auth.server';
import { publicEnv, type PublicEnv } from './utils/env.server';
import { fetchUnreadCounts } from './utils/notifications.server';
import { messagesHref } from './utils/messages.server';
import { isLiteMode } from './utils/lite-mode.server';
import { PlayerSlot } from './components/player/player-slot';
import { useOfflineWorker } from './offline/register';
import { useNonce } from './utils/nonce';
import type { loader as subscribedLoader } from './routes/_auth._subscribed';

export const links: LinksFunction = () => [
  { rel: 'stylesheet', href: stylesheet },
  { rel: 'icon', href: '/favicon.svg', type: 'image/svg+xml' },
];

export const meta: MetaFunction = () => [
  { title: 'Stagedoor' },
  { name: 'description', content: 'Subscribe to your favourite artists: unreleased music, posts, polls and messages.' },
  { name: 'theme-color', content: '#060f1f' },
];

export { refreshWhenBackOnline as clientLoader } from '~/utils/realtime';

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const api = apiFor({ request, context, params });
  // Asked alongside /users/me rather than after it, both counts in one call; an answer we cannot get leaves the
  // badges out, not the page.
  const [user, unread] = await Promise.all([getOptionalUser(api), api.token ? fetchUnreadCounts(api).catch(() => null) : null]);
  const messages = user ? { href: messagesHref(user, params.artistUsername), unread: unread?.messages ?? null } : null;
  // Artists are told of nothing (they subscribe to no one): no bell for them.
  const notifications = user && !user.artist ? { unread: unread?.notifications ?? null } : null;
  return { user, messages, notifications, lite: isLiteMode(request), ENV: publicEnv() };
}

declare global {
  interface Window {
    ENV: PublicEnv;
  }
}

/** The document around both the app and the error fallback; the root loader's data is absent when it failed. */
export function Layout({ children }: { children: ReactNode }) {
  const data = useRouteLoaderData<typeof loader>('root');
  const nonce = useNonce();
  return (
    <html lang="en" className="h-full">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        <Links />
        {data && !data.lite ? <link rel="manifest" href="/manifest.webmanifest" /> : null}
      </head>
      <body className="min-h-full bg-navy-dark font-sans text-white antialiased">
        <a
          href="#main"
          className="sr-only z-50 rounded bg-accent px-4 py-2 font-semibold text-navy focus:not-sr-only focus:fixed focus:left-4 focus:top-4"
        >
          Skip to content
        </a>
        <div className="flex min-h-screen flex-col">{children}</div>
        {data?.lite ? null : (
          <>
            {data ? <script nonce={nonce} dangerouslySetInnerHTML={{ __html: `window.ENV = ${JSON.stringify(data.ENV)}` }} /> : null}
            <ScrollRestoration nonce={nonce} />
            <Scripts nonce={nonce} />
            {/* `npm run dev` only: the compiler's live reload (folded away in the production bundle). */}
            {process.env.NODE_ENV === 'development' ? <LiveReload nonce={nonce} /> : null}
          </>
        )}
      </body>
    </html>
  );
}

/**
 * A page whose route says `handle: { footer: false }` (a conversation, which is a full-height column with the
 * composer pinned at its foot) goes without the site footer under it.
 */
export interface PageHandle {
  footer?: boolean;
}

export default function App() {
  const { user, messages, notifications, lite, ENV } = useLoaderData<typeof loader>();
  const footer = useMatches().every((match) => (match.handle as PageHandle | undefined)?.footer !== false);
  useOfflineWorker(lite);
  return (
    <PaymentProvider publishableKey={ENV.STRIPE_PUBLISHABLE_KEY}>
      <ProgressBar />
      <TopBar user={user} messages={messages} notifications={notifications} />
      <main id="main" className="flex flex-1 flex-col">
        <Outlet />
      </main>
      {footer ? <Footer marketingUrl={ENV.MARKETING_URL} lite={lite} /> : null}
      <PlayerSlot />
    </PaymentProvider>
  );
}

/** The production marketing site, for an error page whose root loader failed before reading the config. */
const FALLBACK_MARKETING_URL = 'https://stagedoor.fm';

/** The error fallback of every route: a 404 shows the not-found page, anything else the generic one. */
export function ErrorBoundary() {
  const error = useRouteError();
  const data = useRouteLoaderData<typeof loader>('root');
  const matches = useMatches();
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  const artistUsername = matches.map((match) => match.params.artistUsername).find(Boolean);
  // The club's layout loaded its artist before the page failed: a missing item there is a club's missing item.
  const club = useRouteLoaderData<typeof subscribedLoader>('routes/_auth._subscribed')?.artist;
  // When the root loader itself failed there is no server data: fall back on what the page was served with.
  const marketingUrl =
    data?.ENV.MARKETING_URL ?? (typeof window === 'undefined' ? undefined : window.ENV?.MARKETING_URL) ?? FALLBACK_MARKETING_URL;
  return (
    <>
      <ErrorPage notFound={notFound} artistUsername={artistUsername} marketingUrl={marketingUrl} club={club} />
      <Footer marketingUrl={marketingUrl} />
    </>
  );
}
