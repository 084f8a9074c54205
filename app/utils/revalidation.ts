import type { ShouldRevalidateFunction } from '@remix-run/react';

/**
 * For the layouts above the conversation page: a message sent, deleted or marked read changes nothing a layout holds
 * (the token, the artist), so after those fetchers only the root (its unread badge) and the page load again. Without
 * single fetch every loader that reruns is a request of its own from the fan's phone.
 */
export const skipAfterMessageActions: ShouldRevalidateFunction = ({ formAction, defaultShouldRevalidate }) =>
  formAction !== undefined && /\/account\/messages\/[^/?]+/.test(formAction) ? false : defaultShouldRevalidate;
