import { formatPrice } from '#contract/money';
import type { SubscriptionDetail } from '#contract/payments';
import { formatDate } from '~/utils/dates';

/**
 * What happens next to a membership: a renewal, a trial's first charge, or the end. The club's own account page and
 * the fan's list of memberships say it in the same words.
 */
export function membershipSummary(subscription: SubscriptionDetail, artist: { yearlyPrice: number; currency: string }) {
  const ends = formatDate(subscription.expiresAt);
  const price = `${formatPrice(artist.yearlyPrice, artist.currency)} a year`;
  if (subscription.trialEndsAt) {
    const trialEnds = formatDate(subscription.trialEndsAt);
    return subscription.autoRenew
      ? `Your free trial ends on ${trialEnds}. Then we charge the card you gave for your first year (${price}); cancel before then and you pay nothing.`
      : `You cancelled your free trial: your access ends on ${trialEnds} and nothing will be charged.`;
  }
  if (subscription.type === 'gift') return `Your gift membership ends on ${ends}. It never renews by itself, so nobody is charged.`;
  if (!subscription.autoRenew) return `Auto-renewal is off: your membership ends on ${ends} and you will not be charged again.`;
  return subscription.type === 'free'
    ? `Your free membership renews by itself on ${ends}.`
    : `Your membership renews on ${ends} at ${price}.`;
}
