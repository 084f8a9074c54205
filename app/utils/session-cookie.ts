/** Spec §9: the session cookie is named after the product. */
export const SESSION_COOKIE = 'stagedoor';
/** Spec §4 and §9: a log-in sets the cookie for one year. */
export const SESSION_MAX_AGE = 31_536_000;
