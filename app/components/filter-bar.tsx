import { Link } from '@remix-run/react';
import { listSearch, toggleFilter, type ListState } from '~/utils/content-params';
import { SORT_LABELS, type SortOrder } from '#contract/content-types';

/**
 * The filters and sort of a list page as plain links, so they work without JavaScript and can be
 * shared: each chip switches its filter on or off, "All" clears them, and Newest / Oldest set `sort`. Changing
 * either goes back to the first page. The chosen ones carry aria-current, which screen readers announce.
 */
export function FilterBar<F extends string>({
  basePath,
  all,
  labels,
  state,
  extra,
  label = 'Filter',
  defaultSort = 'desc',
  ownOrderLabel,
}: {
  basePath: string;
  all: readonly F[];
  labels: Record<F, string>;
  state: ListState<F>;
  /** Parameters every link keeps (e.g. the collection page's `from`). */
  extra?: Record<string, string | undefined>;
  label?: string;
  /** The sort a link leaves out; null on a list with an order of its own (a collection), where every sort is written. */
  defaultSort?: SortOrder | null;
  /** The name of that own order, offered first among the sorts (e.g. "Artist's order"). */
  ownOrderLabel?: string;
}) {
  const href = (next: ListState<F>) => `${basePath}${listSearch({ ...next, offset: 0 }, all, extra, defaultSort)}`;
  const none = state.filters.length === 0;
  return (
    <div className="flex flex-col gap-4 lg:flex-row lg:items-start lg:justify-between">
      {/* On a phone the chips scroll sideways in one row instead of piling up above the grid. */}
      <nav aria-label={label} className="-mx-4 min-w-0 sm:mx-0">
        <ul className="flex gap-2 overflow-x-auto px-4 pb-1 sm:flex-wrap sm:overflow-visible sm:px-0 sm:pb-0">
          <li className="shrink-0">
            <Chip to={href({ ...state, filters: [] })} active={none}>
              All
            </Chip>
          </li>
          {all.map((filter) => (
            <li key={filter} className="shrink-0">
              <Chip to={href({ ...state, filters: toggleFilter(state.filters, filter) })} active={state.filters.includes(filter)}>
                {labels[filter]}
              </Chip>
            </li>
          ))}
        </ul>
      </nav>
      <nav aria-label="Sort" className="shrink-0">
        <ul className="flex flex-wrap gap-2">
          {ownOrderLabel ? (
            <li>
              <Chip to={href({ ...state, sort: undefined })} active={!state.sort}>
                {ownOrderLabel}
              </Chip>
            </li>
          ) : null}
          {(['desc', 'asc'] as SortOrder[]).map((sort) => (
            <li key={sort}>
              <Chip to={href({ ...state, sort })} active={state.sort === sort}>
                {SORT_LABELS[sort]}
              </Chip>
            </li>
          ))}
        </ul>
      </nav>
    </div>
  );
}

function Chip({ to, active, children }: { to: string; active: boolean; children: React.ReactNode }) {
  return (
    <Link
      to={to}
      preventScrollReset
      aria-current={active ? 'true' : undefined}
      className={`inline-flex min-h-[2.5rem] items-center gap-1.5 whitespace-nowrap rounded-full border px-4 py-1.5 text-sm font-semibold transition focus:outline-none focus-visible:ring-2 focus-visible:ring-accent focus-visible:ring-offset-2 focus-visible:ring-offset-navy ${
        active ? 'border-accent bg-accent text-navy' : 'border-white/30 text-white hover:border-accent hover:text-accent'
      }`}
    >
      {active ? (
        <svg viewBox="0 0 20 20" fill="currentColor" aria-hidden="true" className="h-4 w-4">
          <path
            fillRule="evenodd"
            d="M16.7 5.3a1 1 0 0 1 0 1.4l-8 8a1 1 0 0 1-1.4 0l-4-4a1 1 0 1 1 1.4-1.4L8 12.6l7.3-7.3a1 1 0 0 1 1.4 0Z"
            clipRule="evenodd"
          />
        </svg>
      ) : null}
      {children}
    </Link>
  );
}
