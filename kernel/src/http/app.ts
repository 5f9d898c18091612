import { createServer, type IncomingMessage, type Server as NodeServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Caller } from '../plugin-api/caller.js';
import { BootError } from '../plugin-api/errors.js';
import type { Kernel } from '../runtime/kernel.js';
import { bearerChallenge, bearerToken } from './bearer.js';
import { BodyTooLarge, readBody } from './body.js';
import { HostGuard, isLoopbackHost } from './host-guard.js';
import { handleInvoke } from './invoke-endpoint.js';
import { McpEndpoint } from './mcp-endpoint.js';
import { sendJson } from './respond.js';
import { matchRoute } from './routes.js';

export interface HttpOptions {
  host?: string;
  port?: number;
}

/**
 * The HTTP face of the kernel: /mcp (Streamable HTTP, stateful), /api/tools/invoke (the SPEC's
 * envelope for CI and curl), /webhooks/* (plugin routes, verified by their own signatures), /healthz.
 * Every request passes the Host/Origin guard first; /mcp and /api need a bearer token.
 */
export class HttpFrontend {
  private readonly server: NodeServer;
  private readonly mcp: McpEndpoint;
  private readonly guard: HostGuard;
  private readonly host: string;
  private noneCaller?: Caller;
  private requestSeq = 0;
  private readonly ridPrefix = Math.random().toString(36).slice(2, 6);

  constructor(
    private readonly kernel: Kernel,
    private readonly opts: HttpOptions = {},
  ) {
    const cfg = kernel.config.http;
    this.host = opts.host ?? cfg.host;
    if (cfg.auth === 'none' && !isLoopbackHost(this.host)) {
      throw new BootError(
        'config_invalid',
        `http.auth "none" is only allowed on a loopback bind (127.0.0.1, ::1, localhost), but http.host is ${this.host}. ` +
          'Use http.auth "token" (the default) or bind to 127.0.0.1.',
      );
    }
    this.guard = new HostGuard({ bindHost: this.host, allowedHosts: cfg.allowedHosts, allowedOrigins: cfg.allowedOrigins });
    this.mcp = new McpEndpoint(kernel);
    this.server = createServer((req, res) => this.dispatch(req, res));
    this.server.keepAliveTimeout = 65_000;
  }

  get sessionCount(): number {
    return this.mcp.sessionCount;
  }

  async listen(): Promise<{ host: string; port: number; url: string }> {
    const cfg = this.kernel.config.http;
    const port = this.opts.port ?? cfg.port;
    if (cfg.auth === 'none') {
      const u = await this.kernel.users.ensureUser(this.kernel.config.stdio.user);
      this.noneCaller = { userId: u.id, username: u.username, via: 'none' };
      this.kernel.logger.warn({ user: u.username }, 'http.auth is "none": every request acts as the local owner; use only on a trusted machine');
    }
    if (this.guard.acceptsAnyHost) this.kernel.logger.warn('bound to all interfaces without http.allowedHosts: Host headers are not checked');
    await new Promise<void>((resolve, reject) => {
      const fail = (err: NodeJS.ErrnoException) => reject(listenError(err, this.host, port));
      this.server.once('error', fail);
      this.server.listen(port, this.host, () => {
        this.server.off('error', fail);
        resolve();
      });
    });
    const addr = this.server.address() as AddressInfo;
    const shown = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
    return { host: addr.address, port: addr.port, url: `http://${shown}:${addr.port}` };
  }

  async close(): Promise<void> {
    await this.mcp.close();
    this.server.closeAllConnections?.();
    if (this.server.listening) await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** Gives each request an id (x-request-id, logs) and turns an escaped error into a 500 with it. */
  private dispatch(req: IncomingMessage, res: ServerResponse): void {
    const rid = `${this.ridPrefix}${(++this.requestSeq).toString(36)}`;
    res.setHeader('x-request-id', rid);
    const log = this.kernel.logger;
    if (log.isLevelEnabled('debug')) {
      const started = performance.now();
      res.once('finish', () =>
        log.debug({ rid, method: req.method, path: req.url, status: res.statusCode, ms: Math.round((performance.now() - started) * 10) / 10 }, 'http request'),
      );
    }
    this.route(req, res).catch((err) => {
      // A client that went away mid-request is not a server fault.
      if (req.destroyed && !res.headersSent) return log.debug({ rid, err: (err as Error).message }, 'client aborted request');
      log.error({ err, rid, method: req.method, path: req.url }, 'http request failed');
      if (!res.headersSent) sendJson(res, 500, { error: 'internal', message: `Unexpected server error (reference ${rid})` });
      else res.end();
    });
  }

  private async route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!this.guard.hostAllowed(req.headers.host) || !this.guard.originAllowed(req.headers.origin)) {
      return sendJson(res, 403, { error: 'forbidden', message: 'Host or Origin not allowed (DNS-rebinding protection); see http.allowedHosts and http.allowedOrigins' });
    }
    const path = pathOf(req.url);
    if (path === '/healthz') return this.health(req, res);
    if (path.startsWith('/webhooks/')) return this.webhook(req, res, path.slice('/webhooks/'.length));
    if (path === '/mcp' || path === '/api/tools/invoke' || path === '/api/tools') {
      const caller = await this.authenticate(req, res);
      if (!caller) return;
      if (path === '/mcp') return this.mcp.handle(req, res, caller);
      if (path === '/api/tools' && req.method === 'GET') return sendJson(res, 200, { tools: this.kernel.registry.listing() });
      if (path === '/api/tools/invoke' && req.method === 'POST') return handleInvoke(this.kernel, req, res, caller);
      res.setHeader('allow', path === '/api/tools' ? 'GET' : 'POST');
      return sendJson(res, 405, { error: 'method_not_allowed', message: `${req.method} is not supported on ${path}` });
    }
    sendJson(res, 404, { error: 'not_found', message: `No route for ${req.method} ${path}` });
  }

  /** Liveness plus a storage round trip, so a load balancer sees a lost database. */
  private async health(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method !== 'GET' && req.method !== 'HEAD') return sendJson(res, 405, { error: 'method_not_allowed', message: 'Use GET /healthz' });
    const base = { version: this.kernel.version.version, storage: this.kernel.storage.dialect, sessions: this.mcp.sessionCount };
    try {
      await this.kernel.storage.dataSource.query('SELECT 1');
    } catch (err) {
      this.kernel.logger.error({ err }, 'health check: storage unreachable');
      return sendJson(res, 503, { status: 'unavailable', ...base, message: 'storage unreachable' });
    }
    sendJson(res, 200, { status: 'ok', ...base });
  }

  private async authenticate(req: IncomingMessage, res: ServerResponse): Promise<Caller | null> {
    if (this.noneCaller) return this.noneCaller;
    const token = bearerToken(req.headers.authorization);
    const caller = token ? await this.kernel.tokens.verify(token) : null;
    if (caller) return caller;
    res.setHeader('www-authenticate', bearerChallenge(token ? 'invalid' : 'missing'));
    sendJson(res, 401, {
      error: 'invalid_token',
      error_description: token
        ? 'Unknown or revoked token; create one with: testkeeper token create --user NAME'
        : 'Send Authorization: Bearer <token> (create one with: testkeeper token create --user NAME)',
    });
    return null;
  }

  private async webhook(req: IncomingMessage, res: ServerResponse, rest: string): Promise<void> {
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

function pathOf(url: string | undefined): string {
  if (!url) return '/';
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
}

/** The usual operator mistakes at listen time, as readable boot errors instead of stack traces. */
function listenError(err: NodeJS.ErrnoException, host: string, port: number): Error {
  const where = `${host}:${port}`;
  if (err.code === 'EADDRINUSE') return new BootError('port_in_use', `${where} is already in use; stop the other server or pick another port (--port, TESTKEEPER_PORT)`);
  if (err.code === 'EACCES') return new BootError('port_denied', `Not allowed to listen on ${where}; use a port above 1023 or run with the needed permission`);
  if (err.code === 'EADDRNOTAVAIL' || err.code === 'ENOTFOUND') return new BootError('bad_host', `Cannot listen on ${where}: no such local address (--host, TESTKEEPER_HOST)`);
  return err;
}

