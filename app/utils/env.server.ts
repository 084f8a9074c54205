import { getConfig } from '#contract/config';

/** The validated server configuration (contract/config.ts), for loaders and actions. */
export const env = () => getConfig();

/** The small public subset that reaches the browser (window.ENV). */
export function publicEnv() {
  const config = getConfig();
  return {
    APP_ENV: config.appEnv,
    PUBLIC_API_URL: config.publicApiUrl,
    STRIPE_PUBLISHABLE_KEY: config.stripe.publishableKey,
    /** The external marketing site: footer links (privacy, terms…) and the error page's contact link. */
    MARKETING_URL: config.marketingUrl,
  };
}

export type PublicEnv = ReturnType<typeof publicEnv>;
