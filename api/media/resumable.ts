import fs from 'node:fs';
import path from 'node:path';
import { FileStore } from '@tus/file-store';
import { Server, type Upload } from '@tus/server';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { fileTypeFromBuffer } from 'file-type';
import { MEDIA_KINDS, type MediaKind } from '#contract/content-types';
import { viewerForToken } from '../auth/viewer.js';
import type { ContentServices } from '../content/services.js';
import { ApiError, ok } from '../http.js';
import { newStorageKey, serializeMedia } from './queries.js';
import { classify, MAX_UPLOAD_BYTES, MEDIA_RULES, mediaMessages, unsupportedMessage } from './rules.js';
import { recordUpload } from './uploads.js';

/**
 * Resumable uploads (tus 1.0, docs/media.md): a large file over a phone connection survives a dropped connection
 * and goes on from the last byte the api has. The browser (tus-js-client) creates an upload with POST /uploads
 * (its length, and `kind` and `filename` as metadata), sends it with PATCH, asks where it stands with HEAD after a
 * break, and cancels with DELETE. The parts wait in DATA_DIR/uploads; when the last byte arrives the file is
 * checked as POST /media checks one (the type from its content, the kind's size), stored, and recorded, and the
 * final PATCH answers the media object as POST /media does.
 */

const SNIFF_BYTES = 4100;

class TusRefusal {
  constructor(
    readonly status_code: number,
    readonly body: string,
  ) {}
}

/**
 * Uploads an artist may have under way at once: the form sends one file at a time (a new choice cancels the last),
 * so this is room for a few tabs, and a bound on the disk one account can hold with parts nobody finishes.
 */
export const MAX_OPEN_UPLOADS = 5;

export const resumableMessages = {
  notTus: 'This address takes resumable uploads (tus 1.0.0) with a Tus-Resumable header; a plain upload goes to POST /media.',
  kind: 'Say what kind of file this is: set kind to image, audio or video in Upload-Metadata.',
  deferredLength: "Send the file's size in Upload-Length when starting an upload.",
  tooMany: `You have ${MAX_OPEN_UPLOADS} uploads that haven't finished. Finish or cancel one before starting another.`,
} as const;

/** A refusal as the api words every error (api/http.ts), which tus sends as the answer's body. */
const refuse = (status: number, message: string) =>
  new TusRefusal(status, JSON.stringify({ status, message, errors: { file: [message] } }));

function expectedKind(metadata: Upload['metadata']): MediaKind | undefined {
  const kind = metadata?.kind;
  return (MEDIA_KINDS as readonly string[]).includes(kind ?? '') ? (kind as MediaKind) : undefined;
}

/**
 * The uploads waiting in the folder, each with its owner and when it last received anything (its parts' newest
 * change). Uploads gone quiet for longer than `expiryMs` are removed on the way, whoever they are for: a tab closed
 * mid-upload, a phone that never came back, a process stopped between the last byte and the record.
 */
export async function openUploads(directory: string, expiryMs: number, now = Date.now()) {
  const names = await fs.promises.readdir(directory).catch(() => [] as string[]);
  const ids = new Set(names.filter((name) => !name.startsWith('.')).map((name) => name.replace(/\.json$/, '')));
  const open: { id: string; owner: string | undefined }[] = [];
  for (const id of ids) {
    const parts = [path.join(directory, id), path.join(directory, `${id}.json`)];
    const changed = await Promise.all(
      parts.map((part) =>
        fs.promises.stat(part).then(
          (stat) => stat.mtimeMs,
          () => 0,
        ),
      ),
    );
    if (now - Math.max(...changed) > expiryMs) {
      await Promise.all(parts.map((part) => fs.promises.rm(part, { force: true })));
      continue;
    }
    const info = await fs.promises.readFile(parts[1], 'utf8').then(
      (text) => JSON.parse(text) as { metadata?: { owner?: string } },
      () => undefined,
    );
    open.push({ id, owner: info?.metadata?.owner });
  }
  return open;
}

export function resumableRoutes(app: FastifyInstance, services: ContentServices) {
  const directory = path.join(services.config.dataDir, 'uploads');
  fs.mkdirSync(directory, { recursive: true });
  const datastore = new FileStore({ directory });
  const expiryMs = services.config.media.uploadExpirySeconds * 1000;

  // Abandoned parts are removed at start (what a stopped process left) and then a few times per expiry period.
  let sweeper: NodeJS.Timeout | undefined;
  const sweep = () =>
    openUploads(directory, expiryMs).catch((error: unknown) => services.log.warn({ err: error }, 'uploads: sweep failed'));
  app.addHook('onReady', async () => {
    await sweep();
    sweeper = setInterval(() => void sweep(), Math.min(Math.max(expiryMs / 4, 1000), 15 * 60_000)).unref();
  });
  app.addHook('onClose', async () => clearInterval(sweeper));

  /** The artist an upload is for: every tus request carries the Authorization header of its artist. */
  async function artistOf(req: { headers: Record<string, string | string[] | undefined> }) {
    const header = req.headers.authorization;
    const token = /^Bearer\s+(\S+)$/i.exec(Array.isArray(header) ? (header[0] ?? '') : (header ?? ''))?.[1];
    const viewer = await viewerForToken(services, token);
    if (!viewer) throw refuse(401, 'Sign in to upload.');
    if (!viewer.isPerformer) throw refuse(403, 'Only artists can publish content.');
    return viewer;
  }

  const tus = new Server({
    path: '/uploads',
    datastore,
    maxSize: MAX_UPLOAD_BYTES,
    respectForwardedHeaders: false,
    // tus answers CORS itself (the reply is hijacked): the web app's pages only, and no credentials (the artist's
    // token travels in the Authorization header).
    allowedOrigins: services.config.webOrigins,
    allowedCredentials: false,
    // The upload's address is on the api's public origin, where the browser reaches it.
    generateUrl: (_req, { id }) => `${services.config.publicApiUrl}/uploads/${id}`,
    async onIncomingRequest(req, _res, uploadId) {
      const viewer = await artistOf(req);
      // An upload is its artist's: another artist cannot learn it exists.
      if (req.method !== 'POST' && req.method !== 'OPTIONS') {
        const upload = await datastore.getUpload(uploadId).catch(() => undefined);
        if (upload && upload.metadata?.owner !== viewer.id) throw refuse(404, 'This upload was not found.');
      }
    },
    async onUploadCreate(req, res, upload) {
      const viewer = await artistOf(req);
      // The kind's limit holds from the first byte: an upload says its kind and its size before it sends anything.
      const kind = expectedKind(upload.metadata);
      if (!kind) throw refuse(400, resumableMessages.kind);
      if (upload.size === undefined) throw refuse(400, resumableMessages.deferredLength);
      if (upload.size > MEDIA_RULES[kind].maxBytes) throw refuse(413, MEDIA_RULES[kind].tooLarge);
      const open = await openUploads(directory, expiryMs);
      if (open.filter((other) => other.owner === viewer.id).length >= MAX_OPEN_UPLOADS) throw refuse(429, resumableMessages.tooMany);
      return { res, metadata: { ...upload.metadata, owner: viewer.id } };
    },
    // tus's own refusals (a bad offset, a wrong length…) in the api's words too.
    onResponseError(_req, _res, error) {
      if (error instanceof TusRefusal) return undefined;
      const status = 'status_code' in error && typeof error.status_code === 'number' ? error.status_code : 500;
      const text = 'body' in error && typeof error.body === 'string' ? error.body.trim() : 'The upload could not be stored.';
      return { status_code: status, body: JSON.stringify({ status, message: text }) };
    },
    async onUploadFinish(_req, res, upload) {
      const file = path.join(directory, upload.id);
      try {
        const head = Buffer.alloc(SNIFF_BYTES);
        const handle = await fs.promises.open(file);
        const { bytesRead } = await handle.read(head, 0, SNIFF_BYTES, 0).finally(() => handle.close());
        if (bytesRead === 0) throw refuse(400, mediaMessages.noFile);
        const expected = expectedKind(upload.metadata);
        const detected = classify((await fileTypeFromBuffer(head.subarray(0, bytesRead)))?.mime);
        if (!detected || (expected && detected.kind !== expected)) throw refuse(415, unsupportedMessage(expected));
        if (upload.offset > MEDIA_RULES[detected.kind].maxBytes) throw refuse(413, MEDIA_RULES[detected.kind].tooLarge);
        const key = newStorageKey();
        const { size } = await services.storage.write(key, fs.createReadStream(file));
        const row = await recordUpload(services, {
          ownerId: upload.metadata!.owner!,
          kind: detected.kind,
          mime: detected.mime,
          key,
          size,
          originalName: upload.metadata?.filename ?? '',
        }).catch((error: unknown) => {
          if (error instanceof ApiError) throw refuse(error.statusCode, error.message);
          throw error;
        });
        return {
          res,
          status_code: 200,
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(ok(serializeMedia(row, services.signer, 'artist'))),
        };
      } finally {
        // The parts are stored (or refused): they are not kept.
        await datastore.remove(upload.id).catch(() => undefined);
      }
    },
  });

  // tus reads the body itself, as it arrives.
  app.addContentTypeParser('application/offset+octet-stream', (_request, _payload, done) => done(null));
  const handle = async (request: FastifyRequest, reply: FastifyReply) => {
    // tus answers a request without its header in plain text before any hook runs: here it is refused in the api's words.
    if (request.headers['tus-resumable'] === undefined) throw new ApiError(412, resumableMessages.notTus);
    reply.hijack();
    await tus.handle(request.raw, reply.raw);
  };
  app.post('/uploads', handle);
  for (const method of ['HEAD', 'PATCH', 'DELETE'] as const) app.route({ method, url: '/uploads/:id', handler: handle });
}
