import { describe, expect, it } from 'vitest';
import { parseRange } from '../../api/media/range';
import { classify, unsupportedMessage } from '../../api/media/rules';
import { createMediaSigner } from '../../api/media/signing';

describe('Range header', () => {
  const size = 1000;
  it('reads a closed range, an open one and a suffix', () => {
    expect(parseRange('bytes=0-99', size)).toEqual({ start: 0, end: 99 });
    expect(parseRange('bytes=900-', size)).toEqual({ start: 900, end: 999 });
    expect(parseRange('bytes=-100', size)).toEqual({ start: 900, end: 999 });
    expect(parseRange('bytes=-5000', size)).toEqual({ start: 0, end: 999 });
  });
  it('clamps an end past the file', () => {
    expect(parseRange('bytes=990-2000', size)).toEqual({ start: 990, end: 999 });
  });
  it('answers unsatisfiable for a start past the end', () => {
    expect(parseRange('bytes=1000-', size)).toBe('unsatisfiable');
    expect(parseRange('bytes=-0', size)).toBe('unsatisfiable');
  });
  it('ignores what it cannot serve as one range (the whole file is sent)', () => {
    for (const header of [undefined, '', 'items=0-1', 'bytes=5-1', 'bytes=0-1,5-6', 'bytes=-', 'bytes=a-b']) {
      expect(parseRange(header, size)).toBeUndefined();
    }
  });
});

describe('media kinds', () => {
  it('classifies sniffed types and serves them with a standard type', () => {
    expect(classify('image/jpeg')).toEqual({ kind: 'image', mime: 'image/jpeg' });
    expect(classify('audio/x-m4a')).toEqual({ kind: 'audio', mime: 'audio/mp4' });
    expect(classify('video/quicktime')).toEqual({ kind: 'video', mime: 'video/quicktime' });
    expect(classify('application/pdf')).toBeUndefined();
    expect(classify('image/tiff')).toBeUndefined();
    expect(classify(undefined)).toBeUndefined();
  });
  it('names the formats it takes when it refuses one', () => {
    expect(unsupportedMessage('image')).toBe("This file type isn't supported. Upload a JPEG, PNG, WebP or GIF image.");
    expect(unsupportedMessage()).toContain('an MP4, MOV or WebM video');
  });
});

describe('signed media links', () => {
  const secret = Buffer.alloc(32, 7);
  const hour = 3600_000;

  function parts(link: string) {
    const url = new URL(link);
    return { expires: url.searchParams.get('expires') ?? undefined, sig: url.searchParams.get('sig') ?? undefined, url };
  }

  it('are absolute links on the API base that check out until they expire', () => {
    let now = Date.parse('2025-06-15T12:20:00Z');
    const signer = createMediaSigner(secret, 'https://api.example', () => now);
    const link = parts(signer.url('m1'));
    expect(link.url.origin + link.url.pathname).toBe('https://api.example/media/m1');
    expect(signer.check('m1', 'original', link.expires, link.sig)).toBe('valid');
    // Two to three hours of life, stable within the hour so browsers can cache.
    expect(Number(link.expires) * 1000).toBe(Date.parse('2025-06-15T15:00:00Z'));
    now += 30 * 60_000;
    expect(parts(signer.url('m1')).sig).toBe(link.sig);
    now = Date.parse('2025-06-15T15:00:00Z');
    expect(signer.check('m1', 'original', link.expires, link.sig)).toBe('expired');
    now -= hour;
    expect(signer.check('m1', 'original', link.expires, link.sig)).toBe('valid');
  });
  it('cannot be moved to another file or variant, or extended', () => {
    const signer = createMediaSigner(secret, 'https://api.example');
    const link = parts(signer.url('m1'));
    expect(signer.check('m2', 'original', link.expires, link.sig)).toBe('invalid');
    expect(signer.check('m1', 'thumb', link.expires, link.sig)).toBe('invalid');
    expect(signer.check('m1', 'original', String(Number(link.expires) + 3600), link.sig)).toBe('invalid');
    expect(signer.check('m1', 'original', link.expires, undefined)).toBe('invalid');
    expect(signer.check('m1', 'original', undefined, link.sig)).toBe('invalid');
  });
  it('depend on the secret', () => {
    const link = parts(createMediaSigner(secret, 'https://api.example').url('m1'));
    expect(createMediaSigner(Buffer.alloc(32, 8), 'https://api.example').check('m1', 'original', link.expires, link.sig)).toBe('invalid');
  });
});
