import type { SubmissionResult } from '@conform-to/react';
import * as z from 'zod/mini';
import { CheckboxSchema, CollectionSchema } from '#contract/content-schemas';

/** The form's own fields (the browser checks them as the action does); the items are read from their checkboxes and order inputs. */
export const CollectionFormSchema = z.object({
  ...z.pick(CollectionSchema, { title: true, description: true }).shape,
  cover: z.optional(z.file()),
  removeCover: CheckboxSchema,
});

export type CollectionFormInput = z.input<typeof CollectionFormSchema>;

/**
 * The form's values as the action reads them: its own fields, and what the page must show again after a refusal or a
 * move (the chosen items in their new order, the cover already uploaded), which the action writes into the form before
 * it is parsed, so that they come back in the reply's values.
 */
export const CollectionFormValues = z.object({
  ...CollectionFormSchema.shape,
  itemIds: z.optional(z.array(z.string())),
  coverId: z.optional(z.string()),
  coverName: z.optional(z.string()),
});

/** How many of the artist's items the picker shows at a time (newest first), and how many of the chosen ones. */
export const PICKER_PAGE_SIZE = 24;

/**
 * One page of the chosen items (the last one when `requested` is past it): the loader reads these items' details,
 * the form shows them.
 */
export function pageOfChosen(chosen: string[], requested: number) {
  const lastPage = Math.max(1, Math.ceil(chosen.length / PICKER_PAGE_SIZE));
  const page = Math.min(requested, lastPage);
  const offset = (page - 1) * PICKER_PAGE_SIZE;
  return { page, lastPage, offset, ids: chosen.slice(offset, offset + PICKER_PAGE_SIZE) };
}

/**
 * A move, a search or a page turn: the form as it stands (a title may still be empty) and where to go. The action
 * answers with the page again, this unsaved form in its address for the loader to read back. Its fields are
 * CollectionFormValues' written again as optional text: `z.partial` would do it in one line but adds 0.16 KB to the
 * zod chunk every form page loads (the edit-item page sits at its weight budget).
 */
const PickerBrowse = z.object({
  title: z.optional(z.string()),
  description: z.optional(z.string()),
  coverId: z.optional(z.string()),
  coverName: z.optional(z.string()),
  itemIds: z.optional(z.array(z.string())),
  q: z.optional(z.string()),
  page: z.optional(z.string()),
  cpage: z.optional(z.string()),
  intent: z.literal('browse'),
});

/**
 * The collection pages' forms, told apart by intent: save (also Enter in a field), the edit page's delete, or a move of
 * one item (`move-up:{id}`), a search or a page turn (`browse:{page}` of the picker, `chosen:{page}` of the chosen
 * items), which the action reads as intent=browse once it has placed the items.
 */
export const CollectionActionSchema = z.discriminatedUnion('intent', [
  z.object({ ...CollectionFormValues.shape, intent: z.optional(z.literal('save')) }),
  PickerBrowse,
  z.object({ intent: z.literal('delete') }),
]);

/** The chosen items and the cover of a reply from the collection action (an empty reply: none). */
export function keptChoices(result: Pick<SubmissionResult<string[]>, 'initialValue'> | undefined) {
  const kept = z.safeParse(z.pick(CollectionFormValues, { itemIds: true, coverId: true, coverName: true }), result?.initialValue ?? {});
  return kept.success ? kept.data : {};
}

export interface FormCover {
  id: string;
  name: string;
  /** Shown beside the file field: the saved cover's picture (an upload not yet saved has only its name). */
  url: string | null;
}

/**
 * The cover as the last answer left it: a refused save's reply, else the unsaved form in the address (after a move, a
 * search or a page turn), else the saved one (`saved`; none on a new collection).
 */
export function shownCover(
  lastResult: Pick<SubmissionResult<string[]>, 'initialValue'> | undefined,
  draft: { coverId: string | null; coverName: string } | null,
  saved: FormCover | null,
): FormCover | null {
  const kept = lastResult ? keptChoices(lastResult) : draft ? { coverId: draft.coverId, coverName: draft.coverName } : null;
  if (!kept) return saved;
  if (!kept.coverId) return null;
  return { id: kept.coverId, name: kept.coverName ?? '', url: kept.coverId === saved?.id ? saved.url : null };
}
