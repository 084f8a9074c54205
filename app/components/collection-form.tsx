import { getFormProps, useForm, type SubmissionResult } from '@conform-to/react';
import { Form, Link, useNavigation } from '@remix-run/react';
import { useRef, type ReactNode } from 'react';
import type { PickableItem, PickerPage } from '~/utils/collections.server';
import { CollectionFormSchema, pageOfChosen, PICKER_PAGE_SIZE, type CollectionFormInput } from '~/utils/collection-form';
import { SEARCH_MAX } from '#contract/search';
import { parseForm } from '~/utils/form-schema';
import { CheckboxField, FileField, IMAGE_ACCEPT, InputField, TextareaField } from './forms';
import { ErrorList, FormAlert } from './form-parts';
import { ItemArt } from './item-art';

const schema = CollectionFormSchema;
const STATE_LABELS: Record<PickableItem['state'], string> = { published: 'Published', scheduled: 'Scheduled', draft: 'Draft' };

const smallButton =
  'rounded-full border border-white/30 px-3 py-1.5 text-sm font-semibold text-white hover:bg-white/10 disabled:opacity-40 focus:outline-none focus-visible:ring-2 focus-visible:ring-accent';

/**
 * The form of /{artist}/account/collections/new and …/{id}/edit: plain multipart HTML that works without
 * JavaScript. The chosen items come first, in the collection's order, a page of them at a time, each with an order
 * number and move up/down buttons; below them the picker, a page of the artist's items with a search. Moves, the search
 * and the page buttons are form intents the action answers by showing the form again, so nothing typed or ticked is
 * lost; the whole list of chosen items rides along in a hidden input, so the ones on other pages keep their places.
 */
export function CollectionForm({
  items,
  picker,
  chosen,
  chosenPage,
  defaultValue,
  cover,
  lastResult,
  cancelTo,
  submitLabel,
}: {
  items: PickableItem[];
  picker: PickerPage;
  chosen: string[];
  chosenPage: number;
  defaultValue?: { title?: string; description?: string };
  cover: { id: string; name: string; url: string | null } | null;
  lastResult?: SubmissionResult<string[]>;
  cancelTo: string;
  submitLabel: string;
}) {
  const navigation = useNavigation();
  const saving = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'save';
  const [form, fields] = useForm<CollectionFormInput>({
    id: 'collection',
    lastResult,
    defaultValue,
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseForm(formData, schema),
  });
  const byId = new Map(items.map((item) => [item._id, item]));
  const { page, lastPage, offset, ids } = pageOfChosen(chosen, chosenPage);
  // Each chosen item of the page with its place in the whole list (one gone since it was chosen is not shown).
  const shown = ids.flatMap((id, index) => {
    const item = byId.get(id);
    return item ? [{ item, position: offset + index }] : [];
  });
  // The api's refusal of the items (itemIds.3) is the list's, which has no field of its own.
  const itemErrors = form.allErrors.items;
  // The list's inputs start again from the action's answer after a move.
  const listKey = chosen.join(',');

  return (
    <Form method="post" encType="multipart/form-data" {...getFormProps(form)} className="space-y-8">
      {/* Enter in a field saves (the first submit button is the default one, before any move button). */}
      <button type="submit" name="intent" value="save" tabIndex={-1} aria-hidden="true" className="sr-only">
        {submitLabel}
      </button>
      <FormAlert id={form.errorId} errors={form.errors} />
      <section className="space-y-5 rounded-2xl bg-navy-light p-5 ring-1 ring-white/10 sm:p-6">
        <InputField field={fields.title} label="Title" />
        <TextareaField field={fields.description} label="Description (optional)" />
        <div>
          <input type="hidden" name="coverId" value={cover?.id ?? ''} />
          <input type="hidden" name="coverName" value={cover?.name ?? ''} />
          <FileField
            // Once a file is uploaded (a move or a search sends it), the picker starts empty again: the preview shows it.
            key={cover?.id ?? ''}
            field={fields.cover}
            label="Cover image (optional)"
            hint="JPEG, PNG, WebP or GIF, up to 15 MB."
            accept={IMAGE_ACCEPT}
            uploading={saving}
            preview={
              cover ? (
                <div className="mb-3 flex flex-wrap items-center gap-3 rounded-lg bg-white/5 p-3">
                  {cover.url ? <img src={cover.url} alt="" className="h-16 w-16 rounded-md object-cover" /> : null}
                  <p className="min-w-0 flex-1 text-sm text-white/85">
                    <span className="font-semibold text-white">Attached:</span> {cover.name || 'the current cover'}. Choose a file to
                    replace it.
                  </p>
                  <CheckboxField field={fields.removeCover} label="Remove it" />
                </div>
              ) : null
            }
          />
        </div>
      </section>

      <fieldset className="rounded-2xl bg-navy-light p-5 ring-1 ring-white/10 sm:p-6" aria-describedby="collection-items-hint">
        <legend className="float-left w-full text-xl font-bold text-white">Items</legend>
        <p id="collection-items-hint" className="clear-left pt-2 text-sm text-white/70">
          Tick the items to include. Fans see them in the order of their numbers (1 first); drafts and scheduled items show once published.
        </p>
        <ErrorList id="collection-items-error" errors={itemErrors} />
        <input type="hidden" name="chosen" value={chosen.join(',')} />
        <input type="hidden" name="shown" value={shown.map(({ item }) => item._id).join(',')} />
        <input type="hidden" name="cpage" value={page} />
        {chosen.length === 0 ? (
          <p className="mt-4 text-base text-white/75">No items chosen yet: tick them below.</p>
        ) : (
          <>
            <p className="mt-4 text-sm text-white/75">
              {chosen.length > PICKER_PAGE_SIZE
                ? `${offset + 1}–${Math.min(offset + PICKER_PAGE_SIZE, chosen.length)} of the ${chosen.length} items in this collection`
                : `${chosen.length} ${chosen.length === 1 ? 'item' : 'items'} in this collection`}
            </p>
            <ul key={`${page}:${listKey}`} aria-label="In this collection" className="mt-2 divide-y divide-white/10">
              {shown.map(({ item, position }) => (
                <ItemRow key={item._id} item={item} box="checked">
                  <OrderInput item={item} defaultValue={position + 1} />
                  <button
                    type="submit"
                    name="intent"
                    value={`move-up:${item._id}`}
                    formNoValidate
                    disabled={position === 0}
                    className={smallButton}
                  >
                    <span aria-hidden="true">↑</span>
                    <span className="sr-only">{`Move ${item.title} up`}</span>
                  </button>
                  <button
                    type="submit"
                    name="intent"
                    value={`move-down:${item._id}`}
                    formNoValidate
                    disabled={position === chosen.length - 1}
                    className={smallButton}
                  >
                    <span aria-hidden="true">↓</span>
                    <span className="sr-only">{`Move ${item.title} down`}</span>
                  </button>
                </ItemRow>
              ))}
            </ul>
            <PageButtons intent="chosen" page={page} hasNext={page < lastPage} label="the chosen items" />
          </>
        )}
        <ItemPicker picker={picker} items={byId} chosen={chosen} listKey={listKey} />
      </fieldset>

      <div className="flex flex-col-reverse gap-3 sm:flex-row sm:items-center sm:justify-end">
        <Link
          to={cancelTo}
          className="rounded-full px-5 py-3 text-center text-base font-semibold text-white/85 hover:text-white focus:outline-none focus-visible:ring-2 focus-visible:ring-accent"
        >
          Cancel
        </Link>
        <button
          type="submit"
          name="intent"
          value="save"
          className="rounded-full bg-accent px-6 py-3 text-base font-semibold text-navy hover:bg-accent-dark focus:outline-none focus-visible:ring-2 focus-visible:ring-white"
        >
          {submitLabel}
        </button>
      </div>
    </Form>
  );
}

/**
 * One item of the form: its box (ticked when chosen; none where the picker lists an item already chosen above), its
 * picture, title, kind and state, and what can be done with it.
 */
function ItemRow({ item, box, children }: { item: PickableItem; box: 'checked' | 'unchecked' | 'none'; children: ReactNode }) {
  return (
    <li className="flex flex-wrap items-center gap-3 py-3">
      {box === 'none' ? (
        <span aria-hidden="true" className="h-5 w-5 shrink-0 text-center text-accent">
          ✓
        </span>
      ) : (
        <input
          id={`item-${item._id}`}
          type="checkbox"
          name="item"
          value={item._id}
          defaultChecked={box === 'checked'}
          className="h-5 w-5 shrink-0 rounded border-white/40 bg-white/10 accent-accent focus:ring-accent"
        />
      )}
      {item.thumbnailUrl ? (
        <img src={item.thumbnailUrl} alt="" loading="lazy" className="h-10 w-10 shrink-0 rounded-md bg-white/10 object-cover" />
      ) : (
        <span className="h-10 w-10 shrink-0 overflow-hidden rounded-md">
          <ItemArt title={item.title} type={item.type} />
        </span>
      )}
      <label htmlFor={box === 'none' ? undefined : `item-${item._id}`} className="min-w-0 flex-1 basis-40">
        <span className="block truncate text-base font-semibold text-white">{item.title}</span>
        <span className="block text-sm text-white/70">
          {item.typeLabel} · {STATE_LABELS[item.state]}
        </span>
      </label>
      <div className="flex items-center gap-2">{children}</div>
    </li>
  );
}

/** The number that places an item in the collection (1 first); empty for an item not chosen yet (it goes last). */
function OrderInput({ item, defaultValue }: { item: PickableItem; defaultValue?: number }) {
  return (
    <>
      <label htmlFor={`order-${item._id}`} className="sr-only">
        {`Order of ${item.title}`}
      </label>
      <input
        id={`order-${item._id}`}
        name={`order-${item._id}`}
        type="number"
        inputMode="numeric"
        min={1}
        defaultValue={defaultValue ?? ''}
        placeholder="–"
        className="w-16 rounded-lg border border-white/25 bg-white/5 px-2 py-1.5 text-base text-white focus:outline-none focus:ring-2 focus:ring-accent"
      />
    </>
  );
}

/**
 * The picker: a search of the artist's items and a page of them (PICKER_PAGE_SIZE, newest first, every state). Search
 * and the page buttons submit the whole form (intent `browse:{page}`): the action keeps what was typed and ticked (a
 * ticked item joins the chosen ones above) and shows the page asked for. Enter in the search box searches.
 */
function ItemPicker({
  picker,
  items,
  chosen,
  listKey,
}: {
  picker: PickerPage;
  items: Map<string, PickableItem>;
  chosen: string[];
  listKey: string;
}) {
  const search = useRef<HTMLButtonElement>(null);
  const shown = picker.ids.flatMap((id) => items.get(id) ?? []);
  const isChosen = new Set(chosen);
  const first = (picker.page - 1) * PICKER_PAGE_SIZE + 1;
  const last = first + shown.length - 1;
  return (
    <section aria-labelledby="collection-picker-title" className="mt-6 border-t border-white/10 pt-5">
      <h3 id="collection-picker-title" className="text-lg font-bold text-white">
        Add items
      </h3>
      <input type="hidden" name="shownQ" value={picker.q} />
      <input type="hidden" name="page" value={picker.page} />
      <div className="mt-3 flex gap-2">
        <label htmlFor="collection-q" className="sr-only">
          Search your items
        </label>
        <input
          id="collection-q"
          type="search"
          name="q"
          defaultValue={picker.q}
          maxLength={SEARCH_MAX}
          placeholder="Search your items"
          onKeyDown={(event) => {
            if (event.key !== 'Enter') return;
            event.preventDefault();
            search.current?.click();
          }}
          className="min-w-0 flex-1 rounded-lg border border-white/25 bg-white/5 px-3 py-2 text-base text-white placeholder:text-white/50 focus:outline-none focus:ring-2 focus:ring-accent"
        />
        <button ref={search} type="submit" name="intent" value="browse:1" formNoValidate className={smallButton}>
          Search
        </button>
      </div>
      <p className="mt-3 text-sm text-white/75" role="status">
        {shown.length > 0
          ? `${first}–${last} of ${picker.total}${picker.q ? ` matching “${picker.q}”` : ''}`
          : picker.q
            ? `No items match “${picker.q}”.`
            : picker.page > 1
              ? 'No more items.'
              : 'You have no items yet. Publish something first.'}
      </p>
      {shown.length > 0 ? (
        <ul key={`${picker.q}:${picker.page}:${listKey}`} aria-label="Your items" className="mt-2 divide-y divide-white/10">
          {shown.map((item) =>
            isChosen.has(item._id) ? (
              <ItemRow key={item._id} item={item} box="none">
                <span className="text-sm text-white/70">In the collection</span>
              </ItemRow>
            ) : (
              <ItemRow key={item._id} item={item} box="unchecked">
                <OrderInput item={item} />
              </ItemRow>
            ),
          )}
        </ul>
      ) : null}
      <PageButtons intent="browse" page={picker.page} hasNext={shown.length > 0 && last < picker.total} label="your items" />
    </section>
  );
}

/** Previous and next page of a list of the form, as submit buttons (`{intent}:{page}`), so nothing typed is lost. */
function PageButtons({ intent, page, hasNext, label }: { intent: 'browse' | 'chosen'; page: number; hasNext: boolean; label: string }) {
  if (page <= 1 && !hasNext) return null;
  return (
    <div role="group" aria-label={`Pages of ${label}`} className="mt-4 flex flex-wrap justify-end gap-3">
      {page > 1 ? (
        <button type="submit" name="intent" value={`${intent}:${page - 1}`} formNoValidate className={smallButton}>
          Previous page
        </button>
      ) : null}
      {hasNext ? (
        <button type="submit" name="intent" value={`${intent}:${page + 1}`} formNoValidate className={smallButton}>
          Next page
        </button>
      ) : null}
    </div>
  );
}
