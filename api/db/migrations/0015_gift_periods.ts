/**
 * The year each opened gift added to a membership, so that a refund takes off exactly the time its payment paid
 * for: refunding a fan's card year leaves a gift's year stacked after it, and refunding a gift takes its own year
 * off even when it lengthened a paid membership (docs/payments.md "Refunds").
 *
 * Gifts opened before this migration: their year is estimated from the membership as it stands. A membership of
 * type gift began with the gift (a year from its opening); any other was lengthened by it, so its last year is
 * taken to be the gift's.
 */
export const sql = `
ALTER TABLE gifts ADD COLUMN period_from timestamptz, ADD COLUMN period_until timestamptz;
UPDATE gifts g
   SET period_from = CASE WHEN s.type = 'gift' THEN g.redeemed_at ELSE s.expires_at - interval '1 year' END,
       period_until = CASE WHEN s.type = 'gift' THEN g.redeemed_at + interval '1 year' ELSE s.expires_at END
  FROM subscriptions s
 WHERE g.redeemed_by IS NOT NULL AND s.user_id = g.redeemed_by AND s.artist_id = g.artist_id;
CREATE INDEX gifts_redeemed_idx ON gifts (redeemed_by, artist_id) WHERE redeemed_by IS NOT NULL;
`;
