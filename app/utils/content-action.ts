import type { SubmissionResult } from '@conform-to/react';

/**
 * The messages of the content action's reply (content-action.server.ts) for one of the forms of a page, which may
 * hold several: the reply names the intent and the item or poll of the form that was sent.
 */
export function intentErrors(result: SubmissionResult<string[]> | undefined, intent: string, target?: string) {
  const sent = result?.initialValue;
  const mine = sent?.intent === intent && (target === undefined || sent.itemId === target || sent.pollId === target);
  return (field: string) => (mine ? (result?.error?.[field] ?? undefined) : undefined);
}

/** A poll card's messages: of its vote, or of taking its vote back. */
export function pollErrors(result: SubmissionResult<string[]> | undefined, pollId: string) {
  return intentErrors(result, 'vote', pollId)('answerId') ?? intentErrors(result, 'unvote', pollId)('answerId');
}
