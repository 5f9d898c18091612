import { createServer, type IncomingMessage, type Server as NodeServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { createMcpServer } from '../mcp/server.js';
import type { Caller } from '../plugin-api/caller.js';
import type { ErrorCode } from '../plugin-api/errors.js';
import type { Kernel } from '../runtime/kernel.js';
import { BodyTooLarge, readBody } from './body.js';
import { HostGuard, isLoopbackHost } from './host-guard.js';
import { matchRoute } from './routes.js';
import { SessionTable } from './sessions.js';

/** HTTP status for an error envelope on /api/tools/invoke. */
const STATUS_OF: Record<ErrorCode, number> = {
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

export interface HttpOptions {
  host?: string;
  port?: number;
}

/**
 * The HTTP face of the kernel: /mcp (Streamable HTTP, stateful), /api/tools/invoke (the SPEC's
 * envelope for CI and curl), /webhooks/* (plugin routes, verified by their own signatures), /healthz.
 */
export class HttpFrontend {
  private readonly server: NodeServer;
  private readonly sessions: SessionTable;
  private readonly guard: HostGuard;
  private noneCaller?: Caller;

  constructor(
    private readonly kernel: Kernel,
    private readonly opts: HttpOptions = {},
  ) {
    const cfg = kernel.config.http;
    const host = opts.host ?? cfg.host;
    if (cfg.auth === 'none' && !isLoopbackHost(host)) {
      throw new Error(`http.auth "none" is only allowed on a loopback bind (host is ${host}); use tokens`);
    }
    this.guard = new HostGuard({ bindHost: host, allowedHosts: cfg.allowedHosts, allowedOrigins: cfg.allowedOrigins });
    this.sessions = new SessionTable(cfg.sessionIdleSeconds * 1000, cfg.maxSessions);
    this.server = createServer((req, res) => {
      this.handle(req, res).catch((err) => {
        kernel.logger.error({ err, url: req.url }, 'http request failed');
        if (!res.headersSent) sendJson(res, 500, { error: 'internal', message: 'unexpected server error' });
        else res.end();
      });
    });
    this.server.keepAliveTimeout = 65_000;
  }

  get sessionCount(): number {
    return this.sessions.size;
  }

  async listen(): Promise<{ host: string; port: number; url: string }> {
    const cfg = this.kernel.config.http;
    const host = this.opts.host ?? cfg.host;
    const port = this.opts.port ?? cfg.port;
    if (cfg.auth === 'none') {
      this.noneCaller = await this.callerFor(this.kernel.config.stdio.user);
      this.kernel.logger.warn('http.auth is "none": every request acts as the local owner; use only on a trusted machine');
    }
    if (this.guard.acceptsAnyHost) this.kernel.logger.warn('bound to all interfaces without http.allowedHosts: Host headers are not checked');
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, host, () => resolve());
    });
    const addr = this.server.address() as AddressInfo;
    const shown = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
    return { host: addr.address, port: addr.port, url: `http://${shown}:${addr.port}` };
  }

  async close(): Promise<void> {
    await this.sessions.closeAll();
    this.server.closeAllConnections?.();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async callerFor(username: string): Promise<Caller> {
    const u = await this.kernel.users.ensureUser(username);
    return { userId: u.id, username: u.username, via: 'none' };
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://x');
    if (!this.guard.hostAllowed(req.headers.host) || !this.guard.originAllowed(req.headers.origin as string | undefined)) {
      return sendJson(res, 403, { error: 'forbidden', message: 'Host or Origin not allowed (DNS-rebinding protection); see http.allowedHosts' });
    }
    const path = url.pathname;
    if (path === '/healthz' && req.method === 'GET') {
      return sendJson(res, 200, { status: 'ok', version: this.kernel.version.version, storage: this.kernel.storage.dialect });
    }
    if (path.startsWith('/webhooks/')) return this.handleWebhook(req, res, path.slice('/webhooks/'.length));
    if (path === '/mcp' || path === '/api/tools/invoke' || path === '/api/tools') {
      const caller = await this.authenticate(req, res);
      if (!caller) return;
      if (path === '/mcp') return this.handleMcp(req, res, caller);
      if (path === '/api/tools' && req.method === 'GET') return sendJson(res, 200, { tools: this.kernel.registry.listing() });
      if (path === '/api/tools/invoke' && req.method === 'POST') return this.handleInvoke(req, res, caller);
      return sendJson(res, 405, { error: 'method_not_allowed', message: `${req.method} is not supported on ${path}` });
    }
    sendJson(res, 404, { error: 'not_found', message: `No route for ${req.method} ${path}` });
  }

  private async authenticate(req: IncomingMessage, res: ServerResponse): Promise<Caller | null> {
    if (this.noneCaller) return this.noneCaller;
    const header = req.headers.authorization ?? '';
    const m = /^Bearer\s+(\S+)$/i.exec(header);
    const caller = m ? await this.kernel.tokens.verify(m[1]!) : null;
    if (!caller) {
      res.setHeader('WWW-Authenticate', `Bearer error="invalid_token", error_description="${m ? 'Unknown or revoked token' : 'Missing bearer token'}"`);
      sendJson(res, 401, { error: 'invalid_token', error_description: m ? 'Unknown or revoked token' : 'Send Authorization: Bearer <token> (testkeeper token create --user NAME)' });
      return null;
    }
    return caller;
  }

  private async readJson(req: IncomingMessage, res: ServerResponse): Promise<{ ok: true; body: unknown } | { ok: false }> {
    try {
      const raw = await readBody(req, this.kernel.config.http.maxBodyBytes);
      return { ok: true, body: raw.length ? JSON.parse(raw.toString('utf8')) : undefined };
    } catch (err) {
      if (err instanceof BodyTooLarge) {
        sendJson(res, 413, { jsonrpc: '2.0', error: { code: -32000, message: `Request body exceeds ${this.kernel.config.http.maxBodyBytes} bytes` }, id: null });
      } else {
        sendJson(res, 400, { jsonrpc: '2.0', error: { code: -32700, message: 'Parse error: body is not valid JSON' }, id: null });
      }
      return { ok: false };
    }
  }

  private async handleMcp(req: IncomingMessage, res: ServerResponse, caller: Caller): Promise<void> {
    const sid = req.headers['mcp-session-id'];
    const sessionId = Array.isArray(sid) ? sid[0] : sid;
    let body: unknown;
    if (req.method === 'POST') {
      const parsed = await this.readJson(req, res);
      if (!parsed.ok) return;
      body = parsed.body;
    }
    const authed = Object.assign(req, { auth: { token: 'session', clientId: caller.username, scopes: [], extra: { caller } } });
    if (sessionId) {
      const session = this.sessions.get(sessionId, caller.userId);
      if (!session) {
        return sendJson(res, 404, { jsonrpc: '2.0', error: { code: -32001, message: 'Session not found; initialize a new session' }, id: null });
      }
      return session.transport.handleRequest(authed, res, body);
    }
    if (req.method === 'POST' && isInitializeRequest(body)) {
      if (!this.sessions.hasRoom()) {
        return sendJson(res, 503, { jsonrpc: '2.0', error: { code: -32000, message: 'Too many open sessions; try again later' }, id: null });
      }
      const server = createMcpServer(this.kernel, (extra) => (extra as { caller: Caller }).caller);
      const transport = this.sessions.open(server, caller.userId);
      await server.connect(transport);
      return transport.handleRequest(authed, res, body);
    }
    sendJson(res, 400, { jsonrpc: '2.0', error: { code: -32000, message: 'Bad Request: No valid session ID provided' }, id: null });
  }

  private async handleInvoke(req: IncomingMessage, res: ServerResponse, caller: Caller): Promise<void> {
    const parsed = await this.readJson(req, res);
    if (!parsed.ok) return;
    const body = parsed.body as { tool?: unknown; arguments?: unknown } | undefined;
    if (!body || typeof body.tool !== 'string' || (body.arguments !== undefined && (typeof body.arguments !== 'object' || body.arguments === null || Array.isArray(body.arguments)))) {
      return sendJson(res, 400, {
        success: false,
        error: { code: 'invalid_argument', message: 'Body must be {"tool": "<name>", "arguments": {...}}', hint: 'GET /api/tools lists the tools.' },
      });
    }
    const ac = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) ac.abort();
    });
    const outcome = await this.kernel.invoker.invoke(body.tool, body.arguments ?? {}, { caller, signal: ac.signal });
    const status = outcome.envelope.success ? 200 : STATUS_OF[outcome.envelope.error!.code] ?? 500;
    sendJson(res, status, outcome.envelope);
  }

  private async handleWebhook(req: IncomingMessage, res: ServerResponse, rest: string): Promise<void> {
    const hit = matchRoute(this.kernel.routes, req.method ?? 'GET', rest);
    if (!hit) return sendJson(res, 404, { error: 'not_found', message: 'Unknown webhook' });
    let rawBody: Buffer;
    try {
      rawBody = await readBody(req, this.kernel.config.http.maxBodyBytes);
    } catch (err) {
      if (err instanceof BodyTooLarge) return sendJson(res, 413, { error: 'payload_too_large' });
      throw err;
    }
    const out = await hit.route.handle({ params: hit.params, headers: req.headers, rawBody });
    sendJson(res, out.status, out.body ?? {});
  }
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}
