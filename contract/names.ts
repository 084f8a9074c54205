/**
 * A name's possessive as a page or a mail writes it: "Juniper Lane’s fan club", and a name ending in s takes the
 * apostrophe alone, "The Late Nights’ fan club" (a band's name is often a plural).
 */
export function possessive(name: string) {
  return /s$/i.test(name.trim()) ? `${name}’` : `${name}’s`;
}
