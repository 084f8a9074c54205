import * as z from 'zod/mini';
import { EMAIL_CHOICES } from '#contract/notifications';

/**
 * The fan's notification choices for this artist, as the account page's form posts them (PUT
 * /notifications/preferences/{performerId}): one schema for the browser and the action. A checkbox posts 'on'
 * when ticked and nothing when not.
 */
export const EMAIL_CHOICE_LABELS: Record<(typeof EMAIL_CHOICES)[number], string> = {
  each: 'A mail for each new post',
  digest: 'One mail a day with what is new',
  none: 'No mail',
};

const checkbox = z.pipe(
  z.optional(z.literal('on')),
  z.transform((value) => value === 'on'),
);

export const NotificationChoicesSchema = z.object({
  intent: z.literal('notifications'),
  email: z.enum(EMAIL_CHOICES, { error: 'Choose how you would like to hear by mail.' }),
  push: checkbox,
  inApp: checkbox,
});
