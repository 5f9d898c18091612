import type { IncomingMessage, ServerResponse } from 'node:http';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { createMcpServer } from '../mcp/server.js';
import type { Caller } from '../plugin-api/caller.js';
import type { Kernel } from '../runtime/kernel.js';
import { readJsonBody, sendJson } from './respond.js';
import { SessionTable } from './sessions.js';

/** The caller the endpoint attached to the request (`auth.extra`), as seen by tool handlers. */
const callerOf = (extra: unknown) => (extra as { caller: Caller }).caller;

const rpcError = (code: number, message: string) => ({ jsonrpc: '2.0', error: { code, message }, id: null });

/**
 * /mcp: stateful Streamable HTTP. A session starts with initialize, belongs to the user who started
 * it (another user's id is answered like an unknown one: 404), and ends on DELETE, idle expiry or
 * shutdown. One registry listener serves all sessions' `notifications/tools/list_changed`.
 */
export class McpEndpoint {
  private readonly sessions: SessionTable;
  private readonly onToolsChanged = () => {
    this.sessions.forEach((s) => void s.server.sendToolListChanged().catch(() => undefined));
  };

  constructor(private readonly kernel: Kernel) {
    const cfg = kernel.config.http;
    this.sessions = new SessionTable(cfg.sessionIdleSeconds * 1000, cfg.maxSessions);
    kernel.registry.on('changed', this.onToolsChanged);
  }

  get sessionCount(): number {
    return this.sessions.size;
  }

  async close(): Promise<void> {
    this.kernel.registry.off('changed', this.onToolsChanged);
    await this.sessions.closeAll();
  }

  async handle(req: IncomingMessage, res: ServerResponse, caller: Caller): Promise<void> {
    let body: unknown;
    if (req.method === 'POST') {
      const parsed = await readJsonBody(req, res, this.kernel.config.http.maxBodyBytes, 'jsonrpc');
      if (!parsed.ok) return;
      body = parsed.body;
    }
    const authed = Object.assign(req, { auth: { token: 'session', clientId: caller.username, scopes: [], extra: { caller } } });
    const sid = req.headers['mcp-session-id'];
    const sessionId = Array.isArray(sid) ? sid[0] : sid;
    if (sessionId) {
      const session = this.sessions.get(sessionId, caller.userId);
      if (!session) return sendJson(res, 404, rpcError(-32001, 'Session not found; start a new session with initialize'));
      return session.transport.handleRequest(authed, res, body);
    }
    if (req.method !== 'POST' || !isInitializeRequest(body)) {
      return sendJson(res, 400, rpcError(-32000, 'Bad Request: No valid session ID provided; send initialize first'));
    }
    if (!this.sessions.hasRoom()) {
      res.setHeader('retry-after', '30');
      return sendJson(res, 503, rpcError(-32000, 'Too many open sessions (http.maxSessions); try again later'));
    }
    const server = createMcpServer(this.kernel, callerOf, { followRegistry: false });
    const transport = this.sessions.open(server, caller.userId);
    await server.connect(transport);
    try {
      await transport.handleRequest(authed, res, body);
    } finally {
      this.sessions.settle(transport, server);
    }
  }
}
