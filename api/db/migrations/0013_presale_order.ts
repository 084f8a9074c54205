/**
 * The artist's list of presale codes is read newest first with the id as the tie-break (many codes are given out in
 * the same second when a presale opens): an index in that whole order lets a page of it be read without sorting the
 * item's thousands of codes.
 */
export const sql = `
CREATE INDEX presale_codes_item_order_idx ON presale_codes (item_id, created_at DESC, id DESC);
DROP INDEX presale_codes_item_idx;
`;
