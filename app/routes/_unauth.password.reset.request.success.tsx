import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Link, useLoaderData } from '@remix-run/react';
import { accentLinkClass, FormPage } from '~/components/form-page';

export const meta: MetaFunction = () => [{ title: 'Check your inbox | Stagedoor' }];

export async function loader({ request }: LoaderFunctionArgs) {
  const artist = new URL(request.url).searchParams.get('artist')?.trim();
  return { artist: artist && /^[A-Za-z0-9]+$/.test(artist) ? artist : null };
}

export default function ResetRequestSuccess() {
  const { artist } = useLoaderData<typeof loader>();
  const search = artist ? `?${new URLSearchParams({ artist })}` : '';
  return (
    <FormPage
      title="Check your inbox"
      intro={
        <p>If an account uses that email address, we’ve sent it a link to choose a new password. The link works once, for one hour.</p>
      }
    >
      <div className="space-y-4 text-base text-white/85">
        <div className="flex h-14 w-14 items-center justify-center rounded-full bg-accent/15 text-accent" aria-hidden="true">
          <svg
            viewBox="0 0 24 24"
            className="h-7 w-7"
            fill="none"
            stroke="currentColor"
            strokeWidth="2"
            strokeLinecap="round"
            strokeLinejoin="round"
          >
            <rect x="3" y="5" width="18" height="14" rx="2" />
            <path d="m3 7 9 6 9-6" />
          </svg>
        </div>
        <p>No mail after a few minutes? Look in your spam folder, or ask for a new link.</p>
        <p className="flex flex-wrap gap-x-6 gap-y-2">
          <Link to={`/login${search}`} className={accentLinkClass}>
            Back to log in
          </Link>
          <Link to={`/password/reset/request${search}`} className={accentLinkClass}>
            Send another link
          </Link>
        </p>
      </div>
    </FormPage>
  );
}
