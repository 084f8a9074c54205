/**
 * What must never reach a log line, on either tier: a reset link's token, a signed media link's signature, the test
 * gateway's approval secret, Stripe's client secrets, codes, session tokens and cookies. Logs are read by more
 * people and kept longer than the database, and a reset token in a log is a way into someone's account.
 */

export const REDACTED = '[REDACTED]';

/**
 * A query parameter that carries a secret (`token`, `sig`, `secret`, `code`, `promo`, `password`, `key` or a name
 * ending in `_token`, `_secret`…), written plainly or percent-encoded inside another parameter (`next=%2F…%3Ftoken%3D…`).
 * The value runs to the next parameter or the end of the URL.
 */
const SECRET_PARAMETER =
  /((?:[?&;]|%3F|%26)(?:[\w.-]*_)?(?:token|secret|sig|signature|code|promo|password|key)(?:=|%3D))(?:(?!%26)[^&#;\s"'\\<>])+/gi;

/** A slash, plain or percent-encoded once or twice (a path inside `next=`). */
const SLASH = String.raw`(?:/|%2F|%252F)`;

/**
 * A path segment that is itself the secret: a gift link (/gift/{token} on the web, /gifts/{token} and
 * /gifts/{token}/redeem on the api) opens the gift for whoever holds it. Every segment after /gift/ or /gifts/ is
 * redacted but the pages that are no token: /gifts/bought/{payment} (a payment its buyer alone reads) and an
 * artist's /{artist}/gift/sent. Every other secret of the api travels in the query (token, sig, secret…), and a tus
 * upload's id is no capability (each of its requests carries its artist's Authorization, api/media/resumable.ts).
 */
const SECRET_PATH_SEGMENT = new RegExp(
  String.raw`(${SLASH}gifts?${SLASH})(?!(?:bought|sent)(?:${SLASH}|[?#"\s]|$))(?:(?!%2F|%3F|%23|%26|%25)[^/?#&;\s"'\<>])+`,
  'gi',
);

/** Credentials after an authentication scheme, wherever they appear. */
const CREDENTIALS = /\b(Bearer|Basic)\s+[\w.~+/=-]+/gi;

/**
 * Headers that carry credentials: as JSON (`"cookie":"…"`, the whole string) or as a header line (`Cookie: …` to the
 * end of the line, or of the JSON string it is written in).
 */
const SECRET_HEADER =
  /(["']?\b(?:authorization|proxy-authorization|cookie|set-cookie|x-stagedoor-admin-token|stripe-signature)\b["']?\s*[:=]\s*)("(?:[^"\\]|\\.)*"|[^\r\n"\\]*)/gi;

/**
 * The one redaction of log text, applied where each tier writes its log lines (the api's logger, the web tier's
 * console): secret query parameters, secret path segments, credentials and credential-carrying headers become [REDACTED]. A JSON line
 * stays valid JSON.
 */
export function redactSecrets(text: string): string {
  return text
    .replace(SECRET_HEADER, (_match, name: string, value: string) => `${name}${value.startsWith('"') ? `"${REDACTED}"` : REDACTED}`)
    .replace(CREDENTIALS, `$1 ${REDACTED}`)
    .replace(SECRET_PARAMETER, `$1${REDACTED}`)
    .replace(SECRET_PATH_SEGMENT, `$1${REDACTED}`);
}
