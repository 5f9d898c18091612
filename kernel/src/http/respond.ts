import type { IncomingMessage, ServerResponse } from 'node:http';
import { BodyTooLarge, readBody } from './body.js';

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** How a refused body is reported: a JSON-RPC error on /mcp, a tool envelope on /api. */
export type ErrorFlavor = 'jsonrpc' | 'envelope';

/**
 * Reads and parses a JSON body of at most `limit` bytes. On a body too large (413) or not JSON (400)
 * the response is sent here and `{ ok: false }` returned.
 */
export async function readJsonBody(req: IncomingMessage, res: ServerResponse, limit: number, flavor: ErrorFlavor): Promise<{ ok: true; body: unknown } | { ok: false }> {
  try {
    const raw = await readBody(req, limit);
    return { ok: true, body: raw.length ? JSON.parse(raw.toString('utf8')) : undefined };
  } catch (err) {
    const tooLarge = err instanceof BodyTooLarge;
    if (!tooLarge && !(err instanceof SyntaxError)) throw err;
    const message = tooLarge ? `Request body exceeds ${limit} bytes (http.maxBodyBytes)` : 'Body is not valid JSON';
    if (tooLarge) res.setHeader('connection', 'close'); // the rest of the upload is not read
    sendJson(
      res,
      tooLarge ? 413 : 400,
      flavor === 'jsonrpc'
        ? { jsonrpc: '2.0', error: { code: tooLarge ? -32000 : -32700, message: tooLarge ? message : `Parse error: ${message}` }, id: null }
        : { success: false, error: { code: 'invalid_argument', message, hint: tooLarge ? 'Send a smaller request.' : 'Send {"tool": "<name>", "arguments": {...}}.' } },
    );
    return { ok: false };
  }
}
