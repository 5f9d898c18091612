import { expect } from 'chai';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { createTempDatabase, postgresUnavailableReason, requireToolchain } from '@testkeeper/kernel/testing';
import { createToken, envelopeOf, httpClient, runCli, startHttpServer, tempHome, type ServerProcess, type TempHome } from './cli-process.js';

describe('serve --http on PostgreSQL (TESTKEEPER_STORAGE_URL, real process)', function () {
  let home: TempHome | undefined;
  let server: ServerProcess | undefined;
  let db: { url: string; drop(): Promise<void> } | undefined;
  let env: Record<string, string>;
  let owner: string;
  let alice: { id: number; token: string };
  const clients: Client[] = [];

  const invoke = (token: string, body: unknown) =>
    fetch(`${server!.url}/api/tools/invoke`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify(body) });

  before(async function () {
    requireToolchain(this, await postgresUnavailableReason());
    db = await createTempDatabase();
    env = { TESTKEEPER_STORAGE_URL: db.url };
    home = tempHome({ http: { tokenCacheSeconds: 0 } });
    server = await startHttpServer(home, [], env);
    await server.waitForStderr(/More tokens:/);
    owner = /^\s+(tk_\S+)$/m.exec(server.stderr())![1]!;
    alice = await createToken(home, 'alice', env);
  });

  after(async function () {
    for (const c of clients) await c.close().catch(() => undefined);
    await server?.stop();
    await db?.drop().catch(() => undefined);
    home?.cleanup();
  });

  it('reports PostgreSQL storage on /healthz and created no SQLite file', async function () {
    const res = await fetch(`${server!.url}/healthz`);
    expect(res.status).to.equal(200);
    expect(await res.json()).to.include({ status: 'ok', storage: 'postgres' });
    const files = (await import('node:fs')).readdirSync(home!.dataDir);
    expect(files.filter((f) => f.endsWith('.db'))).to.deep.equal([]);
  });

  it('serves MCP initialize, tools/list and tools/call with a token', async function () {
    const c = await httpClient(server!.mcpUrl, alice.token);
    clients.push(c);
    expect((await c.listTools()).tools.map((t) => t.name)).to.include('create_project');
    const created = envelopeOf(await c.callTool({ name: 'create_project', arguments: { name: 'PG Shop', force_create: true } }));
    expect(created.success, JSON.stringify(created)).to.equal(true);
    const listed = envelopeOf(await c.callTool({ name: 'list_projects', arguments: {} }));
    expect(listed.result.items.map((p: { name: string }) => p.name)).to.deep.equal(['PG Shop']);
    const ownerView = await invoke(owner, { tool: 'list_projects', arguments: {} });
    expect(((await ownerView.json()) as any).result.total, 'the owner does not see alice\'s project').to.equal(0);
  });

  it('maps envelope errors to HTTP statuses on /api/tools/invoke', async function () {
    const bad = await invoke(alice.token, { tool: 'list_projects', arguments: { limit: 0 } });
    expect(bad.status).to.equal(400);
    await bad.text();
    const missing = await invoke(alice.token, { tool: 'get_project_summary', arguments: { project_id: 987654 } });
    expect(missing.status).to.equal(404);
    expect(((await missing.json()) as any).error.code).to.equal('not_found');
  });

  it('rejects a missing token and stops accepting a revoked one', async function () {
    const none = await fetch(`${server!.url}/api/tools/invoke`, { method: 'POST', body: '{"tool":"list_projects"}' });
    expect(none.status).to.equal(401);
    await none.text();
    const r = await runCli(home!, ['token', 'revoke', '--id', String(alice.id)], { env });
    expect(r.code, r.stderr).to.equal(0);
    const after = await invoke(alice.token, { tool: 'list_projects' });
    expect(after.status).to.equal(401);
    await after.text();
  });
});
