/** http_ece ships no types: the one call the push tests make (RFC 8188 aes128gcm, as web push uses it). */
declare module 'http_ece' {
  import type { ECDH } from 'node:crypto';
  export function decrypt(buffer: Buffer, params: { version: 'aes128gcm'; privateKey: ECDH; authSecret: Buffer }): Buffer;
}
