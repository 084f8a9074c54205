import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ApiContext } from '../context.js';
import { tag } from '../cache/tags.js';
import { seed } from '../db/seed.js';
import { backupStream, snapshotDatabase } from '../backup/backup.js';
import { ApiError, ok, parse } from '../http.js';
import { createPromo, NewPromoSchema } from '../payments/promos.js';
import { createArtist, NewArtistSchema } from '../performers/create.js';
import type { MediaStorage } from '../storage/storage.js';
import { JobsCommandSchema, runJobsCommand } from '../jobs/admin.js';
import type { PaymentGateway } from '../payments/gateway.js';
import { operatorRefund, OperatorRefundSchema } from '../payments/refunds.js';
import { endMembership, EndMembershipSchema } from '../subscriptions/end.js';
import { SuspendSchema } from '#contract/moderation';
import { CLI_ACTOR, grantOperator, OperatorSchema, suspendAccount } from '../moderation/suspend.js';
import type { Realtime } from '../realtime/server.js';

export const ADMIN_TOKEN_HEADER = 'x-stagedoor-admin-token';

/**
 * Operator endpoints, for the CLI while the server holds the embedded database (api/db/lock.ts). Only registered
 * when the server has an admin token; the token lives in DATA_DIR/admin-token, readable by the server's user alone.
 */
export function adminRoutes(
  app: FastifyInstance,
  ctx: ApiContext,
  adminToken: string,
  { storage, gateway, realtime }: { storage?: MediaStorage; gateway?: PaymentGateway; realtime?: Realtime } = {},
) {
  const expected = digest(adminToken);
  const guard = async (request: FastifyRequest) => {
    const given = request.headers[ADMIN_TOKEN_HEADER];
    if (typeof given !== 'string' || !timingSafeEqual(digest(given), expected)) {
      throw new ApiError(403, 'Operator endpoints need the admin token of this server.');
    }
  };

  app.post('/admin/artists', { onRequest: guard }, async (request) => {
    const artist = parse(NewArtistSchema, request.body);
    const created = await createArtist(ctx.db, artist);
    await ctx.cache.invalidate(tag.artists());
    return ok(created);
  });

  app.post('/admin/promos', { onRequest: guard }, async (request) => {
    const promo = parse(NewPromoSchema, request.body);
    return ok(await createPromo(ctx.db, promo));
  });

  if (gateway) {
    app.post('/admin/refunds', { onRequest: guard }, async (request) =>
      ok(await operatorRefund({ ...ctx, gateway }, parse(OperatorRefundSchema, request.body))),
    );
  }

  app.post('/admin/memberships/end', { onRequest: guard }, async (request) =>
    ok(await endMembership({ ...ctx, gateway }, parse(EndMembershipSchema, request.body))),
  );

  app.post('/admin/suspensions', { onRequest: guard }, async (request) =>
    ok(await suspendAccount(ctx, parse(SuspendSchema, request.body), CLI_ACTOR, (id) => realtime?.disconnectUser(id))),
  );

  app.post('/admin/operators', { onRequest: guard }, async (request) =>
    ok(await grantOperator(ctx.db, parse(OperatorSchema, request.body))),
  );

  app.post('/admin/seed', { onRequest: guard }, async () => {
    const summary = await seed(ctx.db, { storage });
    await ctx.cache.invalidate(tag.artists());
    return ok(summary);
  });

  if (storage) {
    // The backup of the embedded database is taken here, by the process that holds it (api/backup/backup.ts).
    app.post('/admin/backup', { onRequest: guard }, async (_request, reply) => {
      const snapshot = await snapshotDatabase(ctx.db, ctx.config.jobs.schema);
      return reply.type('application/gzip').send(backupStream(snapshot, { storage, dataDir: ctx.config.dataDir }));
    });
  }

  app.post('/admin/jobs', { onRequest: guard }, async (request) =>
    ok(await runJobsCommand(ctx.jobs, parse(JobsCommandSchema, request.body))),
  );
}

/** Both sides hashed to the same length, so the comparison takes the same time whatever was sent. */
function digest(value: string) {
  return createHash('sha256').update(value).digest();
}
