import { randomUUID } from 'node:crypto';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';

export interface Session {
  transport: StreamableHTTPServerTransport;
  server: Server;
  userId: number;
  lastSeen: number;
}

/**
 * Stateful Streamable HTTP sessions: created on initialize, bound to the user who created them,
 * expired after `idleMs` without requests, capped at `max`. A session that ends (expiry, DELETE,
 * shutdown) releases its transport and Server; nothing else holds them.
 */
export class SessionTable {
  private readonly sessions = new Map<string, Session>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    private readonly idleMs: number,
    private readonly max: number,
  ) {
    this.sweeper = setInterval(() => this.sweep(), Math.max(250, Math.min(idleMs / 4, 30_000)));
    this.sweeper.unref();
  }

  get size(): number {
    return this.sessions.size;
  }

  /** The session for an id, only if it belongs to this user (another user's looks unknown). */
  get(id: string, userId: number): Session | undefined {
    const s = this.sessions.get(id);
    if (!s || s.userId !== userId) return undefined;
    s.lastSeen = Date.now();
    return s;
  }

  hasRoom(): boolean {
    if (this.sessions.size < this.max) return true;
    this.sweep();
    return this.sessions.size < this.max;
  }

  /** A transport whose session is stored once the SDK has assigned the id on initialize. */
  open(server: Server, userId: number): StreamableHTTPServerTransport {
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        this.sessions.set(id, { transport, server, userId, lastSeen: Date.now() });
      },
    });
    // Set before server.connect(), which chains its own close handling after this one.
    transport.onclose = () => {
      if (transport.sessionId) this.sessions.delete(transport.sessionId);
    };
    return transport;
  }

  /**
   * Called after the initialize request was handled: when the SDK refused it (bad Accept header,
   * invalid message...) no session was stored, so the pair is closed here and nothing refers to it.
   */
  settle(transport: StreamableHTTPServerTransport, server: Server): void {
    if (transport.sessionId && this.sessions.has(transport.sessionId)) return;
    void dispose({ transport, server });
  }

  /** Runs `fn` on every live session (e.g. to send `notifications/tools/list_changed`). */
  forEach(fn: (s: Session) => void): void {
    for (const s of this.sessions.values()) fn(s);
  }

  sweep(now = Date.now()): number {
    let closed = 0;
    for (const [id, s] of this.sessions) {
      if (now - s.lastSeen >= this.idleMs) {
        this.sessions.delete(id);
        void dispose(s);
        closed++;
      }
    }
    return closed;
  }

  async closeAll(): Promise<void> {
    clearInterval(this.sweeper);
    const all = [...this.sessions.values()];
    this.sessions.clear();
    await Promise.all(all.map(dispose));
  }
}

async function dispose(s: Pick<Session, 'transport' | 'server'>): Promise<void> {
  await s.transport.close().catch(() => undefined);
  await s.server.close().catch(() => undefined);
}
