import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in for an S3-compatible service at the HTTP boundary (as the Stripe stand-in is for Stripe): the few
 * calls `api/storage/s3.ts` makes, path-style, with objects kept in memory. Signatures are not checked; the
 * requests are recorded, so a test can see what went over the wire.
 */
export interface S3StandIn {
  endpoint: string;
  bucket: string;
  objects: Map<string, Buffer>;
  requests: { method: string; key: string; range?: string }[];
  close(): Promise<void>;
}

const xml = (body: string) => `<?xml version="1.0" encoding="UTF-8"?>${body}`;
const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export async function startS3StandIn(bucket = 'stagedoor-test'): Promise<S3StandIn> {
  const objects = new Map<string, Buffer>();
  const requests: S3StandIn['requests'] = [];
  const server = http.createServer(async (request, response) => {
    const url = new URL(request.url!, 'http://s3.test');
    const [, name, ...rest] = url.pathname.split('/');
    const key = decodeURIComponent(rest.join('/'));
    requests.push({ method: request.method!, key, range: request.headers.range });
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    if (name !== bucket) {
      response.writeHead(404, { 'content-type': 'application/xml' }).end(xml('<Error><Code>NoSuchBucket</Code></Error>'));
      return;
    }
    if (request.method === 'GET' && !key && url.searchParams.get('list-type') === '2') {
      const prefix = url.searchParams.get('prefix') ?? '';
      const keys = [...objects.keys()].filter((stored) => stored.startsWith(prefix)).sort();
      const contents = keys.map((stored) => `<Contents><Key>${escape(stored)}</Key><Size>${objects.get(stored)!.length}</Size></Contents>`);
      response
        .writeHead(200, { 'content-type': 'application/xml' })
        .end(
          xml(
            `<ListBucketResult><Name>${bucket}</Name><Prefix>${escape(prefix)}</Prefix><KeyCount>${keys.length}</KeyCount><IsTruncated>false</IsTruncated>${contents.join('')}</ListBucketResult>`,
          ),
        );
      return;
    }
    if (request.method === 'PUT') {
      objects.set(key, Buffer.concat(chunks));
      response.writeHead(200, { etag: `"${objects.get(key)!.length}"` }).end();
      return;
    }
    if (request.method === 'DELETE') {
      objects.delete(key);
      response.writeHead(204).end();
      return;
    }
    const object = objects.get(key);
    if (!object) {
      response
        .writeHead(404, { 'content-type': 'application/xml' })
        .end(
          request.method === 'HEAD'
            ? undefined
            : xml('<Error><Code>NoSuchKey</Code><Message>The specified key does not exist.</Message></Error>'),
        );
      return;
    }
    const range = /^bytes=(\d+)-(\d+)$/.exec(request.headers.range ?? '');
    if (range) {
      const start = Number(range[1]);
      const end = Math.min(Number(range[2]), object.length - 1);
      response.writeHead(206, { 'content-length': String(end - start + 1), 'content-range': `bytes ${start}-${end}/${object.length}` });
      response.end(request.method === 'HEAD' ? undefined : object.subarray(start, end + 1));
      return;
    }
    response.writeHead(200, { 'content-length': String(object.length), 'content-type': 'application/octet-stream' });
    response.end(request.method === 'HEAD' ? undefined : object);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    bucket,
    objects,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
