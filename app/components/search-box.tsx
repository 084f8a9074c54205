import { Form, Link } from '@remix-run/react';
import { SEARCH_MAX } from '#contract/search';
import type { SortOrder } from '#contract/content-types';
import { listSearch } from '~/utils/content-params';
import { FilterBar } from './filter-bar';

/**
 * A list page's controls (the vault, the posts): the search, then the filter and sort links, both keeping each
 * other's choices.
 */
export function SearchAndFilters<F extends string>({
  basePath,
  q,
  total,
  state: { filters, sort },
  all,
  labels,
  extra,
  searchLabel,
  filterLabel,
}: {
  basePath: string;
  q: string;
  total: number;
  state: { filters: F[]; sort: SortOrder };
  all: readonly F[];
  labels: Record<F, string>;
  extra?: Record<string, string | undefined>;
  searchLabel: string;
  filterLabel: string;
}) {
  return (
    <div className="mt-8 space-y-6">
      <SearchBox
        action={basePath}
        q={q}
        keep={{ filters: filters.join(',') || undefined, sort: sort === 'desc' ? undefined : sort }}
        total={total}
        label={searchLabel}
        clearHref={`${basePath}${listSearch({ filters, sort }, all)}`}
      />
      <FilterBar basePath={basePath} all={all} labels={labels} state={{ filters, sort }} extra={extra} label={filterLabel} />
    </div>
  );
}

/**
 * The search of a list page (the vault, the posts): a plain GET form, so it works without JavaScript, that keeps
 * the chosen filters and sort (hidden fields) and starts again from the first page. With a search under way it
 * says how many items matched and offers to clear it.
 */
export function SearchBox({
  action,
  q,
  keep,
  total,
  label,
  clearHref,
}: {
  action: string;
  q: string;
  /** The list's other parameters, kept by the search (filters, sort). */
  keep: Record<string, string | undefined>;
  total: number;
  label: string;
  clearHref: string;
}) {
  return (
    <div>
      <Form method="get" action={action} role="search" aria-label={label} className="flex max-w-xl gap-2">
        {Object.entries(keep).map(([name, value]) => (value ? <input key={name} type="hidden" name={name} value={value} /> : null))}
        <label htmlFor="search-q" className="sr-only">
          {label}
        </label>
        <input
          id="search-q"
          type="search"
          name="q"
          defaultValue={q}
          maxLength={SEARCH_MAX}
          placeholder="Search titles, captions and what is said"
          className="min-w-0 flex-1 rounded-full border border-white/30 bg-navy-dark px-4 py-2 text-base text-white placeholder:text-white/60 focus:border-accent focus:outline-none focus-visible:ring-2 focus-visible:ring-accent"
        />
        <button
          type="submit"
          className="shrink-0 rounded-full bg-accent px-5 py-2 text-base font-bold text-navy hover:bg-accent/90 focus:outline-none focus-visible:ring-2 focus-visible:ring-accent focus-visible:ring-offset-2 focus-visible:ring-offset-navy"
        >
          Search
        </button>
      </Form>
      {q ? (
        <p role="status" className="mt-3 text-base text-white/85">
          {total === 1 ? '1 item matches' : `${total} items match`} “{q}”.{' '}
          <Link to={clearHref} className="font-semibold text-accent underline-offset-4 hover:underline">
            Clear the search
          </Link>
        </p>
      ) : null}
    </div>
  );
}
