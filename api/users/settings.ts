import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import { fileTypeFromBuffer } from 'file-type';
import sharp from 'sharp';
import {
  AVATAR_MAX_BYTES,
  DeleteAccountSchema,
  EMAIL_CHANGE_TTL_HOURS,
  EmailChangeSchema,
  EmailConfirmSchema,
  NameChangeSchema,
  PasswordChangeSchema,
  settingsMessages,
  type EmailChangeResponse,
} from '#contract/account-settings';
import { hashPassword, verifyPassword } from '../auth/passwords.js';
import { consume, ensureNotBlocked } from '../auth/rate-limits.js';
import { revokeUserSessions } from '../auth/sessions.js';
import { hashToken, newToken } from '../auth/tokens.js';
import { requireViewer, type Viewer } from '../auth/viewer.js';
import { accountTags, tag } from '../cache/tags.js';
import type { ContentServices } from '../content/services.js';
import { one } from '../db/client.js';
import { ApiError, badRequest, notFound, ok, parse, unprocessable } from '../http.js';
import { queueMail } from '../mail/queue.js';
import type { PaymentGateway } from '../payments/gateway.js';
import { deleteAccount, exportAccount } from './erase.js';
import { findConflict, findUserById } from './queries.js';
import { serializeMe } from './routes.js';

const AVATAR_SIZE = 256;
const AVATAR_PATH = '/users/avatars/';
const AVATAR_MIMES = new Set(['image/jpeg', 'image/png', 'image/webp', 'image/gif']);
const ME_COLUMNS = `id, name, avatar, username, email, is_performer AS "isPerformer"`;

/** Where an avatar's bytes are stored, from the id in its public address. */
const avatarKey = (id: string) => `avatars/${id}`;

/** The id of an avatar this api stored, from the address a user row holds ('' for none or an artist's media image). */
export function ownAvatarId(avatar: string) {
  const at = avatar.indexOf(AVATAR_PATH);
  const id = at === -1 ? '' : avatar.slice(at + AVATAR_PATH.length);
  return /^[0-9a-f-]{36}$/.test(id) ? id : '';
}

/**
 * The account settings every user has (docs/api.md "Account settings"): name, picture, email address (confirmed by
 * a link mailed to the new address), password, a download of their data, and deleting the account
 * (docs/decisions/015-account-deletion.md). Each change that needs proof of the account asks for the current password,
 * and a wrong one counts as a failed log-in of the account.
 */
export async function accountSettingsRoutes(app: FastifyInstance, services: ContentServices, gateway: PaymentGateway) {
  const { db, limiters, config, storage } = services;

  async function checkCurrentPassword(viewer: Viewer, password: string) {
    const user = (await findUserById(db, viewer.id))!;
    const accountKey = `user:${user.id}`;
    await ensureNotBlocked(limiters.loginPerAccount, accountKey);
    if (!(await verifyPassword(user.passwordHash, password))) {
      await consume(limiters.loginPerAccount, accountKey);
      throw unprocessable(settingsMessages.currentPasswordIncorrect, { currentPassword: [settingsMessages.currentPasswordIncorrect] });
    }
    return user;
  }

  async function setMe(viewerId: string, set: string, params: unknown[]) {
    const row = await one<Parameters<typeof serializeMe>[0]>(
      db,
      `UPDATE users SET ${set}, updated_at = now() WHERE id = $1 RETURNING ${ME_COLUMNS}`,
      [viewerId, ...params],
    );
    await services.cache.invalidate(...accountTags(viewerId, row!.isPerformer));
    return ok(serializeMe(row!));
  }

  app.put('/users/me/name', async (request) => {
    const viewer = await requireViewer(services, request);
    const { name } = parse(NameChangeSchema, request.body);
    return setMe(viewer.id, 'name = $2', [name]);
  });

  await app.register(async (scope) => {
    await scope.register(multipart, { limits: { fileSize: AVATAR_MAX_BYTES, files: 1, fields: 5, parts: 6 } });

    /** A picture (multipart, field `file`): cut to a 256 px square WebP, public at GET /users/avatars/:id. */
    scope.post('/users/me/avatar', async (request) => {
      const viewer = await requireViewer(services, request);
      const missing = () => badRequest(settingsMessages.avatarRequired, { file: [settingsMessages.avatarRequired] });
      if (!request.isMultipart()) throw missing();
      let input: Buffer;
      try {
        const part = await request.file();
        if (!part) throw missing();
        input = await part.toBuffer();
      } catch (error) {
        if (error instanceof ApiError) throw error;
        if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE')
          throw new ApiError(413, settingsMessages.avatarTooLarge, { file: [settingsMessages.avatarTooLarge] });
        throw missing();
      }
      if (!input.length) throw missing();
      const unsupported = () => new ApiError(415, settingsMessages.avatarUnsupported, { file: [settingsMessages.avatarUnsupported] });
      if (!AVATAR_MIMES.has((await fileTypeFromBuffer(input))?.mime ?? '')) throw unsupported();
      let square: Buffer;
      try {
        square = await sharp(input).rotate().resize(AVATAR_SIZE, AVATAR_SIZE, { fit: 'cover' }).webp({ quality: 80 }).toBuffer();
      } catch {
        throw unsupported();
      }
      const id = randomUUID();
      await storage.write(avatarKey(id), Readable.from([square]));
      const before = ownAvatarId(viewer.avatar);
      const answer = await setMe(viewer.id, 'avatar = $2', [`${config.publicApiUrl}${AVATAR_PATH}${id}`]);
      if (before) await storage.remove(avatarKey(before));
      return answer;
    });
  });

  app.delete('/users/me/avatar', async (request) => {
    const viewer = await requireViewer(services, request);
    const before = ownAvatarId(viewer.avatar);
    const answer = await setMe(viewer.id, `avatar = ''`, []);
    if (before) await storage.remove(avatarKey(before));
    return answer;
  });

  /** A user's picture: public (it shows beside their messages and comments) while an account uses it. */
  app.get<{ Params: { id: string } }>('/users/avatars/:id', async (request, reply) => {
    const { id } = request.params;
    if (!/^[0-9a-f-]{36}$/.test(id)) throw notFound('Image not found');
    const used = await one(db, `SELECT 1 FROM users WHERE avatar = $1 AND status = 'active'`, [
      `${config.publicApiUrl}${AVATAR_PATH}${id}`,
    ]);
    const size = used ? await storage.size(avatarKey(id)) : undefined;
    if (size === undefined) throw notFound('Image not found');
    reply.headers({
      'content-type': 'image/webp',
      'content-length': String(size),
      // The bytes behind an id never change; a new picture is a new id.
      'cache-control': 'public, max-age=86400',
      'x-content-type-options': 'nosniff',
    });
    return reply.send(storage.read(avatarKey(id)));
  });

  /** Mails a link to the new address; the address changes only when it is opened (POST /users/email/confirm). */
  app.post('/users/me/email', async (request) => {
    const viewer = await requireViewer(services, request);
    const body = parse(EmailChangeSchema, request.body);
    if (body.email === viewer.email.toLowerCase())
      throw badRequest(settingsMessages.emailUnchanged, { email: [settingsMessages.emailUnchanged] });
    await checkCurrentPassword(viewer, body.currentPassword);
    if ((await findConflict(db, '', body.email, viewer.id)) === 'email')
      throw unprocessable(settingsMessages.emailTaken, { email: [settingsMessages.emailTaken] });
    const { token, hash } = newToken();
    const link = new URL('/account/email/confirm', config.publicWebUrl);
    link.searchParams.set('token', token);
    const expiresAt = await db.transaction(async (tx) => {
      // Only the newest link works.
      await tx.query('DELETE FROM email_changes WHERE user_id = $1', [viewer.id]);
      const row = await one<{ expiresAt: Date }>(
        tx,
        `INSERT INTO email_changes (token_hash, user_id, new_email, expires_at)
         VALUES ($1, $2, $3, now() + make_interval(hours => $4)) RETURNING expires_at AS "expiresAt"`,
        [hash, viewer.id, body.email, EMAIL_CHANGE_TTL_HOURS],
      );
      await queueMail(
        services.jobs,
        { kind: 'emailConfirm', userId: viewer.id, newEmail: body.email, link: link.href },
        { key: `email-confirm:${hash}`, tx },
      );
      return row!.expiresAt;
    });
    const answer: EmailChangeResponse = { pendingEmail: body.email, expiresAt: new Date(expiresAt).toISOString() };
    return ok(answer);
  });

  /** Opens the mailed link: no session needed (it may be opened on another device), the token is the permission. */
  app.post('/users/email/confirm', async (request) => {
    await consume(limiters.passwordChangePerAddress, request.ip);
    const invalid = () => badRequest(settingsMessages.emailLinkInvalid, { token: [settingsMessages.emailLinkInvalid] });
    const body = parse(EmailConfirmSchema, request.body);
    const at = new Date().toISOString();
    const changed = await db.transaction(async (tx) => {
      const change = await one<{ userId: string; newEmail: string; oldEmail: string }>(
        tx,
        `UPDATE email_changes c SET used_at = now() FROM users u
          WHERE c.token_hash = $1 AND c.used_at IS NULL AND c.expires_at > now() AND u.id = c.user_id AND u.status = 'active'
          RETURNING c.user_id AS "userId", c.new_email AS "newEmail", u.email AS "oldEmail"`,
        [hashToken(body.token)],
      );
      if (!change) throw invalid();
      // Taken since the link was sent: the link is spent, and says why.
      if ((await findConflict(tx, '', change.newEmail, change.userId)) === 'email')
        throw unprocessable(settingsMessages.emailTaken, { token: [settingsMessages.emailTaken] });
      await tx.query('UPDATE users SET email = $2, updated_at = now() WHERE id = $1', [change.userId, change.newEmail]);
      await queueMail(
        services.jobs,
        { kind: 'emailChanged', userId: change.userId, oldEmail: change.oldEmail, newEmail: change.newEmail, at },
        { key: `email-changed:${change.userId}:${at}`, tx },
      );
      return change;
    });
    await services.cache.invalidate(tag.user(changed.userId));
    return ok({ email: changed.newEmail });
  });

  /** A new password: every other device signs in again; this session stays. */
  app.put('/users/me/password', async (request) => {
    const viewer = await requireViewer(services, request);
    const body = parse(PasswordChangeSchema, request.body);
    await checkCurrentPassword(viewer, body.currentPassword);
    const passwordHash = await hashPassword(body.password);
    const at = new Date().toISOString();
    await db.transaction(async (tx) => {
      await tx.query('UPDATE users SET password_hash = $2, updated_at = now() WHERE id = $1', [viewer.id, passwordHash]);
      await revokeUserSessions(tx, viewer.id, viewer.tokenHash);
      await queueMail(
        services.jobs,
        { kind: 'passwordChanged', userId: viewer.id, at },
        { key: `password-changed:${viewer.id}:${at}`, tx },
      );
    });
    await services.cache.invalidate(tag.user(viewer.id));
    return ok({ success: true });
  });

  app.get('/users/me/export', async (request) => {
    const viewer = await requireViewer(services, request);
    return ok(await exportAccount(db, viewer.id));
  });

  /** Deletes the account (docs/decisions/015-account-deletion.md): asks for the password and a ticked box. */
  app.delete('/users/me', async (request) => {
    const viewer = await requireViewer(services, request);
    const body = parse(DeleteAccountSchema, request.body);
    if (viewer.isPerformer) throw new ApiError(409, settingsMessages.artistCannotDelete);
    await checkCurrentPassword(viewer, body.currentPassword);
    const avatar = ownAvatarId(viewer.avatar);
    await deleteAccount(services, gateway, viewer.id);
    if (avatar) await storage.remove(avatarKey(avatar));
    return ok({ success: true });
  });
}
