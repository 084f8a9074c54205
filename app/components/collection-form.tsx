import { getFormProps, useForm, type SubmissionResult } from '@conform-to/react';
import { Form, Link, useNavigation } from '@remix-run/react';
import type { PickableItem } from '~/utils/collections.server';
import { CollectionFormSchema, type CollectionFormInput } from '~/utils/collection-form';
import { parseForm } from '~/utils/form-schema';
import { CheckboxField, FileField, InputField, TextareaField } from './forms';
import { ErrorList, FormAlert } from './form-parts';

const schema = CollectionFormSchema;
const IMAGE_ACCEPT = 'image/jpeg,image/png,image/webp,image/gif';
const STATE_LABELS: Record<PickableItem['state'], string> = { published: 'Published', scheduled: 'Scheduled', draft: 'Draft' };

const smallButton =
  'rounded-full border border-white/30 px-3 py-1.5 text-sm font-semibold text-white hover:bg-white/10 disabled:opacity-40 focus:outline-none focus-visible:ring-2 focus-visible:ring-accent';

/**
 * The form of /{artist}/account/collections/new and …/{id}/edit: plain multipart HTML that works without
 * JavaScript. The items are a checklist; the chosen ones come first, in the collection's order, each with an order
 * number and move up/down buttons (form intents the action answers by showing the form again in the new order).
 */
export function CollectionForm({
  items,
  chosen,
  defaultValue,
  cover,
  lastResult,
  cancelTo,
  submitLabel,
}: {
  items: PickableItem[];
  chosen: string[];
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
  const ordered = [...chosen.flatMap((id) => byId.get(id) ?? []), ...items.filter((item) => !chosen.includes(item._id))];
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
        {ordered.length === 0 ? (
          <p className="mt-4 text-base text-white/75">You have no items yet. Publish something first.</p>
        ) : (
          <ul key={listKey} className="mt-4 divide-y divide-white/10">
            {ordered.map((item) => {
              const position = chosen.indexOf(item._id);
              const isChosen = position >= 0;
              return (
                <li key={item._id} className="flex flex-wrap items-center gap-3 py-3">
                  <input
                    id={`item-${item._id}`}
                    type="checkbox"
                    name="item"
                    value={item._id}
                    defaultChecked={isChosen}
                    className="h-5 w-5 shrink-0 rounded border-white/40 bg-white/10 accent-accent focus:ring-accent"
                  />
                  {item.thumbnailUrl ? (
                    <img src={item.thumbnailUrl} alt="" loading="lazy" className="h-10 w-10 shrink-0 rounded-md bg-white/10 object-cover" />
                  ) : (
                    <div aria-hidden="true" className="h-10 w-10 shrink-0 rounded-md bg-white/10" />
                  )}
                  <label htmlFor={`item-${item._id}`} className="min-w-0 flex-1 basis-40">
                    <span className="block truncate text-base font-semibold text-white">{item.title}</span>
                    <span className="block text-sm text-white/70">
                      {item.typeLabel} · {STATE_LABELS[item.state]}
                    </span>
                  </label>
                  <div className="flex items-center gap-2">
                    <label htmlFor={`order-${item._id}`} className="sr-only">
                      Order of {item.title}
                    </label>
                    <input
                      id={`order-${item._id}`}
                      name={`order-${item._id}`}
                      type="number"
                      inputMode="numeric"
                      min={1}
                      defaultValue={isChosen ? position + 1 : ''}
                      placeholder="–"
                      className="w-16 rounded-lg border border-white/25 bg-white/5 px-2 py-1.5 text-base text-white focus:outline-none focus:ring-2 focus:ring-accent"
                    />
                    {isChosen ? (
                      <>
                        <button
                          type="submit"
                          name="intent"
                          value={`move-up:${item._id}`}
                          formNoValidate
                          disabled={position === 0}
                          className={smallButton}
                        >
                          <span aria-hidden="true">↑</span>
                          <span className="sr-only">Move {item.title} up</span>
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
                          <span className="sr-only">Move {item.title} down</span>
                        </button>
                      </>
                    ) : null}
                  </div>
                </li>
              );
            })}
          </ul>
        )}
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
