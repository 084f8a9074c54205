import type { SubmissionResult } from '@conform-to/react';
import * as z from 'zod/mini';
import { CollectionSchema } from '#contract/content-schemas';

/** The form's own fields; the items are read from their checkboxes and order inputs. */
export const CollectionFormSchema = z.pick(CollectionSchema, { title: true, description: true });

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

/** The chosen items and the cover of a reply from the collection action (an empty reply: none). */
export function keptChoices(result: Pick<SubmissionResult<string[]>, 'initialValue'> | undefined) {
  const kept = z.safeParse(z.pick(CollectionFormValues, { itemIds: true, coverId: true, coverName: true }), result?.initialValue ?? {});
  return kept.success ? kept.data : {};
}
