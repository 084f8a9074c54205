import { Form, useNavigation } from '@remix-run/react';
import { ErrorList } from './form-parts';

/** Bookmark or remove the bookmark: a plain form posting intent=bookmark to the page's own action. */
export function BookmarkButton({ itemId, bookmarked, errors }: { itemId: string; bookmarked: boolean; errors?: string[] }) {
  const navigation = useNavigation();
  const pending =
    navigation.state !== 'idle' && navigation.formData?.get('intent') === 'bookmark' && navigation.formData?.get('itemId') === itemId;
  // While the form is on its way, show what it will be (JavaScript only; without it the page reloads anyway).
  const shown = pending ? !bookmarked : bookmarked;
  return (
    <Form method="post" preventScrollReset>
      <input type="hidden" name="intent" value="bookmark" />
      <input type="hidden" name="itemId" value={itemId} />
      <input type="hidden" name="bookmarked" value={bookmarked ? 'false' : 'true'} />
      <button
        type="submit"
        className={`inline-flex items-center gap-2 rounded-full border px-4 py-2 text-base font-semibold transition focus:outline-none focus-visible:ring-2 focus-visible:ring-accent focus-visible:ring-offset-2 focus-visible:ring-offset-navy ${
          shown ? 'border-accent bg-accent text-navy' : 'border-white/40 text-white hover:border-accent hover:text-accent'
        }`}
      >
        <svg
          viewBox="0 0 24 24"
          aria-hidden="true"
          className="h-5 w-5"
          fill={shown ? 'currentColor' : 'none'}
          stroke="currentColor"
          strokeWidth="2"
        >
          <path d="M6 3h12v18l-6-4-6 4z" strokeLinejoin="round" />
        </svg>
        {shown ? 'Remove bookmark' : 'Bookmark'}
      </button>
      <ErrorList errors={errors} />
    </Form>
  );
}
