import type { IncomingMessage } from 'node:http';

export class BodyTooLarge extends Error {}

/** Reads the whole body, refusing more than `limit` bytes (answered with 413 by the caller). */
export function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > limit) {
      reject(new BodyTooLarge());
      req.resume();
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.off('data', onData);
        req.resume(); // drain the rest so the 413 can be written
        reject(new BodyTooLarge());
        return;
      }
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.once('end', () => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size)));
    req.once('error', reject);
    // An aborted upload ends without 'end': settle so the handler does not hang.
    req.once('close', () => {
      if (!req.complete) reject(new Error('request aborted by the client'));
    });
  });
}
