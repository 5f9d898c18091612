import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { CreateMessageRequestSchema, type CallToolResult, type CreateMessageRequest, type CreateMessageResult } from '@modelcontextprotocol/sdk/types.js';
import { pino } from 'pino';
import { createMcpServer } from '../mcp/server.js';
import type { Caller } from '../plugin-api/caller.js';
import type { ToolEnvelope } from '../plugin-api/results.js';
import { Kernel } from '../runtime/kernel.js';
import { createTempDatabase } from './postgres.js';

export type Backend = 'sqlite' | 'postgres';

export interface TestHostOptions {
  storage?: Backend;
  /** Config overrides (deep-merged last). */
  config?: Record<string, unknown>;
  /** Username of the default client. */
  user?: string;
  /** When given, the default client declares sampling and answers with this function. */
  sampling?: (req: CreateMessageRequest['params']) => Promise<CreateMessageResult> | CreateMessageResult;
  /** Keep logs quiet unless TESTKEEPER_TEST_LOG is set. */
  logLevel?: string;
}

export interface TestClient {
  client: Client;
  caller: Caller;
  /** Calls a tool and returns the parsed envelope (structuredContent). */
  call(name: string, args?: Record<string, unknown>): Promise<ToolEnvelope & { isError?: boolean }>;
  /** Calls and returns `result`, failing loudly if the call did not succeed. */
  ok<T = any>(name: string, args?: Record<string, unknown>): Promise<T>;
  raw(name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
  close(): Promise<void>;
}

export interface TestHost extends TestClient {
  kernel: Kernel;
  backend: Backend;
  dataDir: string;
  /** Another user's client on the same kernel. */
  clientFor(username: string, opts?: Pick<TestHostOptions, 'sampling'>): Promise<TestClient>;
  /** Closes every client, the kernel, and removes the data dir / temp database. */
  close(): Promise<void>;
}

/**
 * A real kernel with the real plugins, a fresh database and in-memory MCP clients.
 * Used by every pack's tests; third-party plugins can use it too.
 */
export async function startTestHost(opts: TestHostOptions = {}): Promise<TestHost> {
  const backend = opts.storage ?? 'sqlite';
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'tk-test-'));
  const db = backend === 'postgres' ? await createTempDatabase() : undefined;
  const level = process.env.TESTKEEPER_TEST_LOG ?? opts.logLevel ?? 'silent';
  const logger = pino({ level }, pino.destination({ fd: 2, sync: true }));
  let kernel: Kernel;
  try {
    kernel = await Kernel.boot({
      env: {},
      logger,
      overrides: deepAssign({ dataDir, storage: db ? { url: db.url } : {}, log: { level } }, opts.config ?? {}),
    });
  } catch (err) {
    await db?.drop().catch(() => undefined);
    rmSync(dataDir, { recursive: true, force: true });
    throw err;
  }
  const clients: TestClient[] = [];
  const clientFor = async (username: string, o: Pick<TestHostOptions, 'sampling'> = {}) => {
    const c = await connectClient(kernel, username, o.sampling);
    clients.push(c);
    return c;
  };
  const main = await clientFor(opts.user ?? 'alice', { sampling: opts.sampling });
  return {
    ...main,
    kernel,
    backend,
    dataDir,
    clientFor,
    async close() {
      for (const c of clients) await c.close().catch(() => undefined);
      await kernel.close();
      await db?.drop().catch(() => undefined);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function connectClient(kernel: Kernel, username: string, sampling?: TestHostOptions['sampling']): Promise<TestClient> {
  const user = await kernel.users.ensureUser(username);
  const caller: Caller = { userId: user.id, username: user.username, via: 'test' };
  const server = createMcpServer(kernel, () => caller);
  const client = new Client({ name: `test-${username}`, version: '1.0.0' }, { capabilities: sampling ? { sampling: {} } : {} });
  if (sampling) client.setRequestHandler(CreateMessageRequestSchema, async (req) => sampling(req.params));
  const [clientT, serverT] = InMemoryTransport.createLinkedPair();
  await Promise.all([client.connect(clientT), server.connect(serverT)]);
  const raw = (name: string, args: Record<string, unknown> = {}) => client.callTool({ name, arguments: args }) as Promise<CallToolResult>;
  const call = async (name: string, args: Record<string, unknown> = {}) => {
    const res = await raw(name, args);
    const env = (res.structuredContent ?? JSON.parse((res.content[0] as { text: string }).text)) as ToolEnvelope;
    return { ...env, ...(res.isError ? { isError: true } : {}) };
  };
  return {
    client,
    caller,
    raw,
    call,
    async ok(name, args) {
      const env = await call(name, args);
      if (!env.success) throw new Error(`${name} failed: ${JSON.stringify(env.error)}`);
      return env.result as never;
    },
    async close() {
      await client.close();
      await server.close();
    },
  };
}

function deepAssign(a: Record<string, unknown>, b: Record<string, unknown>): Record<string, unknown> {
  const out = { ...a };
  for (const [k, v] of Object.entries(b)) {
    const prev = out[k];
    out[k] = prev && typeof prev === 'object' && !Array.isArray(prev) && v && typeof v === 'object' && !Array.isArray(v) ? deepAssign(prev as Record<string, unknown>, v as Record<string, unknown>) : v;
  }
  return out;
}
