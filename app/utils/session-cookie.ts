/** The session cookie is named after the product. */
export const SESSION_COOKIE = 'stagedoor';
/** A log-in sets the cookie for one year. */
export const SESSION_MAX_AGE = 31_536_000;
