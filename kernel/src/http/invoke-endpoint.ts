import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Caller } from '../plugin-api/caller.js';
import type { ErrorCode } from '../plugin-api/errors.js';
import type { Kernel } from '../runtime/kernel.js';
import { isPlainObject, readJsonBody, sendJson } from './respond.js';

/** HTTP status for an error envelope on /api/tools/invoke. */
export const STATUS_OF: Record<ErrorCode, number> = {
  invalid_argument: 400,
  not_found: 404,
  forbidden: 403,
  conflict: 409,
  not_modified: 200,
  needs_confirmation: 409,
  unavailable: 503,
  upstream_error: 502,
  timeout: 504,
  internal: 500,
};

/**
 * POST /api/tools/invoke `{ "tool": name, "arguments": {...} }` → the same envelope an MCP call
 * returns, with an HTTP status mapped from the error code (for CI and curl).
 */
export async function handleInvoke(kernel: Kernel, req: IncomingMessage, res: ServerResponse, caller: Caller): Promise<void> {
  const parsed = await readJsonBody(req, res, kernel.config.http.maxBodyBytes, 'envelope');
  if (!parsed.ok) return;
  const body = parsed.body;
  if (!isPlainObject(body) || typeof body.tool !== 'string' || (body.arguments !== undefined && !isPlainObject(body.arguments))) {
    return sendJson(res, 400, {
      success: false,
      error: { code: 'invalid_argument', message: 'Body must be {"tool": "<name>", "arguments": {...}}', hint: 'GET /api/tools lists the tools.' },
    });
  }
  // A client that hangs up cancels the call.
  const ac = new AbortController();
  res.once('close', () => {
    if (!res.writableFinished) ac.abort();
  });
  const requestId = String(res.getHeader('x-request-id') ?? '') || undefined;
  const outcome = await kernel.invoker.invoke(body.tool, body.arguments ?? {}, { caller, signal: ac.signal, requestId });
  const status = outcome.envelope.success ? 200 : (STATUS_OF[outcome.envelope.error!.code] ?? 500);
  sendJson(res, status, outcome.envelope);
}
