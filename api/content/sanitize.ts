import sanitizeHtml from 'sanitize-html';

/** Links keep only these schemes; anything else (javascript:, data:, relative paths) becomes plain text. */
const SAFE_HREF = /^(https?:\/\/|mailto:)/i;

const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: ['p', 'br', 'strong', 'b', 'em', 'i', 'a', 'ul', 'ol', 'li'],
  allowedAttributes: { a: ['href', 'rel', 'target'] },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesAppliedToAttributes: ['href'],
  allowProtocolRelative: false,
  // Tags outside the list go, their text stays; script, style and the like go with their content.
  disallowedTagsMode: 'discard',
  transformTags: {
    a: (tagName, attribs): sanitizeHtml.Tag => {
      const href = (attribs.href ?? '').trim();
      if (!SAFE_HREF.test(href)) return { tagName, attribs: {} };
      return { tagName, attribs: { href, rel: 'noopener noreferrer nofollow', target: '_blank' } };
    },
  },
  // A link refused above has lost its href: it goes, its text stays. (Renaming it to a tag outside the list, as we
  // did, left sanitize-html remembering the new name at that depth, and the next link there closed with </span>.)
  exclusiveFilter: (frame) => (frame.tag === 'a' && !frame.attribs.href ? 'excludeTag' : false),
};

/**
 * The small editor always writes its own tags (p, br, strong, b, em, i, a, ul, ol, li). A caption holding none
 * of them came from the plain textarea (no JavaScript): it is text, so "<3" or a pasted "<div>" shows as typed.
 */
function looksLikeHtml(text: string) {
  return /<\/?(p|br|strong|b|em|i|a|ul|ol|li)(\s[^>]*)?\/?>/i.test(text);
}

function escapeHtml(text: string) {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function plainTextToHtml(text: string) {
  return text
    .replace(/\r\n?/g, '\n')
    .trim()
    .split(/\n{2,}/)
    .filter((paragraph) => paragraph.trim())
    .map((paragraph) => `<p>${escapeHtml(paragraph.trim()).replace(/\n/g, '<br />')}</p>`)
    .join('');
}

/**
 * The rich-text caption as it is stored and sent: whatever arrives (the small editor's HTML or the plain
 * textarea's text) becomes HTML holding only paragraphs, line breaks, bold, italic, lists and safe links.
 */
export function sanitizeCaption(input: string) {
  const html = looksLikeHtml(input) ? input : plainTextToHtml(input);
  return sanitizeHtml(html, OPTIONS).trim();
}
