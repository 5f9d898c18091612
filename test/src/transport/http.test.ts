import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { expect } from 'chai';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  createToken,
  envelopeOf,
  httpClient,
  INITIALIZE,
  listChangedCount,
  MCP_HEADERS,
  openEventStream,
  openRawSession,
  runCli,
  sleep,
  startHttpServer,
  tempHome,
  type ServerProcess,
  type TempHome,
} from './cli-process.js';

const MAX_BODY = 64 * 1024;

/** A request with full control over Host and Origin (fetch does not allow setting Host). */
function rawRequest(url: string, opts: { method?: string; path: string; headers?: Record<string, string>; body?: string }): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: u.hostname, port: u.port, method: opts.method ?? 'GET', path: opts.path, headers: opts.headers }, (res) => {
      let body = '';
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end(opts.body);
  });
}

describe('serve --http: Streamable HTTP, tokens and /api/tools/invoke (real process, SQLite)', function () {
  let home: TempHome;
  let server: ServerProcess;
  let ownerToken: string;
  let alice: string;
  let bob: string;
  const clients: Client[] = [];

  const auth = (token: string) => ({ authorization: `Bearer ${token}` });
  const invoke = (token: string | null, body: unknown) =>
    fetch(`${server.url}/api/tools/invoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? auth(token) : {}) },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
  const initSession = async (token: string) => {
    const res = await fetch(server.mcpUrl, { method: 'POST', headers: { ...MCP_HEADERS, ...auth(token) }, body: JSON.stringify(INITIALIZE) });
    await res.text();
    expect(res.status).to.equal(200);
    return res.headers.get('mcp-session-id')!;
  };
  const connect = async (token: string) => {
    const c = await httpClient(server.mcpUrl, token);
    clients.push(c);
    return c;
  };

  before(async function () {
    home = tempHome({ http: { tokenCacheSeconds: 0, maxBodyBytes: MAX_BODY }, log: { level: 'debug' } });
    server = await startHttpServer(home);
    await server.waitForStderr(/More tokens:/);
    ownerToken = /^\s+(tk_\S+)$/m.exec(server.stderr())![1]!;
    [alice, bob] = (await Promise.all([createToken(home, 'alice'), createToken(home, 'bob')])).map((t) => t.token);
  });

  after(async function () {
    for (const c of clients) await c.close().catch(() => undefined);
    const code = await server?.stop();
    expect(code, 'exit code after SIGTERM').to.equal(0);
    home?.cleanup();
  });

  it('first start prints one token with a client configuration on stderr; stdout has only the listening line', async function () {
    expect(server.stdout().trim().split('\n')).to.deep.equal([JSON.stringify({ listening: server.url, mcp: server.mcpUrl })]);
    const err = server.stderr();
    expect(err).to.include('First start: created user "local"');
    expect(err).to.include(`"Authorization": "Bearer ${ownerToken}"`);
    expect(err).to.include(`"url": "${server.mcpUrl}"`);
    expect(err.split(ownerToken).length - 1, 'token appears in the banner lines only').to.equal(3);
    const res = await invoke(ownerToken, { tool: 'list_projects', arguments: {} });
    expect(res.status).to.equal(200);
    const list = await runCli(home, ['token', 'list', '--json']);
    expect(list.code, list.stderr).to.equal(0);
    const rows = JSON.parse(list.stdout) as Array<{ username: string; label: string; prefix: string }>;
    expect(rows.find((r) => r.label === 'first-start')).to.include({ username: 'local', prefix: ownerToken.slice(0, 10) });
    expect(list.stdout, 'tokens are stored hashed: never listed').to.not.include(ownerToken);
  });

  it('/healthz answers without a token', async function () {
    const res = await fetch(`${server.url}/healthz`);
    expect(res.status).to.equal(200);
    expect(res.headers.get('x-request-id')).to.be.a('string').that.is.not.empty;
    expect(await json(res)).to.include({ status: 'ok', storage: 'sqlite' });
  });

  it('answers 401 with WWW-Authenticate without a token and with a bad one', async function () {
    for (const path of ['/mcp', '/api/tools/invoke']) {
      const none = await fetch(server.url + path, { method: 'POST', headers: MCP_HEADERS, body: JSON.stringify(INITIALIZE) });
      expect(none.status, path).to.equal(401);
      expect(none.headers.get('www-authenticate')).to.equal('Bearer realm="testkeeper"');
      expect((await json(none)).error).to.equal('invalid_token');
      const bad = await fetch(server.url + path, { method: 'POST', headers: { ...MCP_HEADERS, ...auth('tk_not-a-real-token') }, body: JSON.stringify(INITIALIZE) });
      expect(bad.status, path).to.equal(401);
      expect(bad.headers.get('www-authenticate')).to.match(/^Bearer realm="testkeeper", error="invalid_token"/);
      await bad.text();
    }
    const basic = await fetch(`${server.url}/api/tools`, { headers: { authorization: `Basic ${Buffer.from('a:b').toString('base64')}` } });
    expect(basic.status).to.equal(401);
    await basic.text();
  });

  it('an SDK client initializes, lists and calls tools with a token', async function () {
    const c = await connect(alice);
    expect(c.getServerVersion()?.name).to.equal('testkeeper');
    expect(c.getServerCapabilities()?.tools?.listChanged).to.equal(true);
    const { tools } = await c.listTools();
    expect(tools.map((t) => t.name)).to.include.members(['list_projects', 'create_project']);
    const res = await c.callTool({ name: 'list_projects', arguments: {} });
    expect(envelopeOf(res)).to.deep.equal({ success: true, result: { items: [], total: 0, limit: 50, offset: 0, next_offset: null } });
    const bad = await c.callTool({ name: 'list_projects', arguments: { limit: 0 } });
    expect(bad.isError).to.equal(true);
    expect(envelopeOf(bad).error?.code).to.equal('invalid_argument');
  });

  it('two users never see each other\'s projects; another user\'s project looks missing', async function () {
    const a = await connect(alice);
    const b = await connect(bob);
    const created = envelopeOf(await a.callTool({ name: 'create_project', arguments: { name: 'Alice Shop', force_create: true } }));
    expect(created.success, JSON.stringify(created)).to.equal(true);
    const projectId = created.result.project_id as number;
    const aliceList = envelopeOf(await a.callTool({ name: 'list_projects', arguments: {} }));
    expect(aliceList.result.items.map((p: { project_id: number }) => p.project_id)).to.include(projectId);
    const bobList = envelopeOf(await b.callTool({ name: 'list_projects', arguments: {} }));
    expect(bobList.result).to.deep.include({ items: [], total: 0 });
    const foreign = envelopeOf(await b.callTool({ name: 'get_project_summary', arguments: { project_id: projectId } }));
    const missing = envelopeOf(await b.callTool({ name: 'get_project_summary', arguments: { project_id: 999_999 } }));
    expect(foreign.error?.code).to.equal('not_found');
    expect(foreign.error?.message).to.equal(missing.error?.message.replace('999999', String(projectId)));
  });

  it('binds a session to its user: another user presenting the session id gets 404', async function () {
    const sid = await initSession(alice);
    const list = { jsonrpc: '2.0', id: 2, method: 'tools/list' };
    const headers = { ...MCP_HEADERS, 'mcp-session-id': sid, 'mcp-protocol-version': '2025-11-25' };
    const asBob = await fetch(server.mcpUrl, { method: 'POST', headers: { ...headers, ...auth(bob) }, body: JSON.stringify(list) });
    expect(asBob.status).to.equal(404);
    expect((await json(asBob)).error.code).to.equal(-32001);
    const asAlice = await fetch(server.mcpUrl, { method: 'POST', headers: { ...headers, ...auth(alice) }, body: JSON.stringify(list) });
    expect(asAlice.status).to.equal(200);
    expect(await asAlice.text()).to.include('list_projects');
  });

  it('answers 400 without a session id and 404 for an unknown one', async function () {
    const list = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    const missing = await fetch(server.mcpUrl, { method: 'POST', headers: { ...MCP_HEADERS, ...auth(alice) }, body: list });
    expect(missing.status).to.equal(400);
    expect((await json(missing)).error.message).to.match(/No valid session ID/);
    const getMissing = await fetch(server.mcpUrl, { headers: { accept: 'text/event-stream', ...auth(alice) } });
    expect(getMissing.status).to.equal(400);
    await getMissing.text();
    const unknown = await fetch(server.mcpUrl, { method: 'POST', headers: { ...MCP_HEADERS, ...auth(alice), 'mcp-session-id': randomUUID() }, body: list });
    expect(unknown.status).to.equal(404);
    expect((await json(unknown)).error.code).to.equal(-32001);
  });

  it('DELETE ends a session; the id is unknown afterwards', async function () {
    const sid = await initSession(alice);
    const headers = { ...MCP_HEADERS, ...auth(alice), 'mcp-session-id': sid, 'mcp-protocol-version': '2025-11-25' };
    const del = await fetch(server.mcpUrl, { method: 'DELETE', headers });
    expect(del.status).to.equal(200);
    const after = await fetch(server.mcpUrl, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'ping' }) });
    expect(after.status).to.equal(404);
    await after.text();
  });

  it('answers 413 for a body over http.maxBodyBytes and keeps serving', async function () {
    const big = JSON.stringify({ tool: 'list_projects', arguments: { pad: 'x'.repeat(MAX_BODY) } });
    const api = await invoke(alice, big);
    expect(api.status).to.equal(413);
    expect((await json(api)).error.message).to.match(/exceeds 65536 bytes/);
    const mcp = await fetch(server.mcpUrl, { method: 'POST', headers: { ...MCP_HEADERS, ...auth(alice) }, body: JSON.stringify({ ...INITIALIZE, pad: 'x'.repeat(MAX_BODY) }) });
    expect(mcp.status).to.equal(413);
    expect((await json(mcp)).error.code).to.equal(-32000);
    // Without a content-length (chunked), the cap still holds.
    const chunked = await rawRequest(server.url, {
      method: 'POST',
      path: '/api/tools/invoke',
      headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked', ...auth(alice) },
      body: big,
    });
    expect(chunked.status).to.equal(413);
    expect((await invoke(alice, { tool: 'list_projects' })).status).to.equal(200);
  });

  it('answers 403 for a foreign Host or Origin (DNS-rebinding protection), accepts loopback ones', async function () {
    const port = new URL(server.url).port;
    const body = JSON.stringify({ tool: 'list_projects' });
    const headers = { 'content-type': 'application/json', ...auth(alice) };
    const badHost = await rawRequest(server.url, { method: 'POST', path: '/api/tools/invoke', headers: { ...headers, host: `evil.example:${port}` }, body });
    expect(badHost.status).to.equal(403);
    expect(JSON.parse(badHost.body).message).to.match(/DNS-rebinding/);
    const badOrigin = await rawRequest(server.url, { method: 'POST', path: '/api/tools/invoke', headers: { ...headers, origin: 'http://evil.example' }, body });
    expect(badOrigin.status).to.equal(403);
    const healthBadHost = await rawRequest(server.url, { path: '/healthz', headers: { host: 'attacker.test' } });
    expect(healthBadHost.status).to.equal(403);
    const ok = await rawRequest(server.url, { method: 'POST', path: '/api/tools/invoke', headers: { ...headers, host: `localhost:${port}`, origin: `http://localhost:${port}` }, body });
    expect(ok.status).to.equal(200);
  });

  it('POST /api/tools/invoke returns the envelope with a status mapped from the error code', async function () {
    const ok = await invoke(ownerToken, { tool: 'list_projects', arguments: { limit: 5 } });
    expect(ok.status).to.equal(200);
    expect(await json(ok)).to.deep.equal({ success: true, result: { items: [], total: 0, limit: 5, offset: 0, next_offset: null } });
    const cases: Array<[unknown, number, string]> = [
      [{ tool: 'list_projects', arguments: { limit: 0 } }, 400, 'invalid_argument'],
      [{ tool: 'no_such_tool', arguments: {} }, 404, 'not_found'],
      [{ tool: 'get_project_summary', arguments: { project_id: 424242 } }, 404, 'not_found'],
      [{ tool: 'create_project', arguments: { name: 'Bob Shop' } }, 200, ''],
      [{ tool: 'create_project', arguments: { name: 'Bob Shop' } }, 409, 'needs_confirmation'],
      [{ arguments: {} }, 400, 'invalid_argument'],
      [{ tool: 'list_projects', arguments: [1] }, 400, 'invalid_argument'],
      ['{not json', 400, 'invalid_argument'],
    ];
    for (const [body, status, code] of cases) {
      const res = await invoke(bob, body);
      const env = await json(res);
      expect(res.status, JSON.stringify(body)).to.equal(status);
      expect(res.headers.get('content-type')).to.equal('application/json');
      if (code) expect(env, JSON.stringify(body)).to.deep.include({ success: false }).and.to.have.nested.property('error.code', code);
      else expect(env.success).to.equal(true);
    }
    const wrongMethod = await fetch(`${server.url}/api/tools/invoke`, { headers: auth(bob) });
    expect(wrongMethod.status).to.equal(405);
    await wrongMethod.text();
  });

  it('a revoked token stops working at once (http.tokenCacheSeconds 0)', async function () {
    const carol = await createToken(home, 'carol');
    expect((await invoke(carol.token, { tool: 'list_projects' })).status).to.equal(200);
    const c = await connect(carol.token);
    const revoked = await runCli(home, ['token', 'revoke', '--id', String(carol.id)]);
    expect(revoked.code, revoked.stderr).to.equal(0);
    expect(revoked.stdout).to.include('revoked 1 token(s)');
    const res = await invoke(carol.token, { tool: 'list_projects' });
    expect(res.status).to.equal(401);
    await res.text();
    // The open MCP session authenticates every request too.
    let failure: unknown;
    await c.listTools().catch((e) => (failure = e));
    expect(String(failure)).to.match(/invalid_token/);
    const again = await runCli(home, ['token', 'revoke', '--id', String(carol.id)]);
    expect(again.code).to.equal(2);
    expect(again.stderr).to.include('No live token matched');
  });

  it('SIGHUP and `testkeeper reload` apply tools.deny: exactly one list_changed each, tool gone then back', async function () {
    const c = await connect(alice);
    const sid = await openRawSession(server.mcpUrl, auth(alice));
    const stream = await openEventStream(server.mcpUrl, sid, auth(alice));
    const notices = () => listChangedCount(stream.messages);
    const base = { http: { tokenCacheSeconds: 0, maxBodyBytes: MAX_BODY }, log: { level: 'debug' } };
    try {
      home.writeConfig({ ...base, tools: { deny: ['list_projects'] } });
      process.kill(server.pid, 'SIGHUP');
      await waitFor(() => notices() >= 1);
      await sleep(300);
      expect(notices()).to.equal(1);
      const names = (await c.listTools()).tools.map((t) => t.name);
      expect(names).to.not.include('list_projects');
      expect(names).to.include('create_project');
      const gone = await invoke(alice, { tool: 'list_projects' });
      expect(gone.status).to.equal(404);
      await gone.text();

      home.writeConfig(base);
      const r = await runCli(home, ['reload']);
      expect(r.code, r.stderr).to.equal(0);
      expect(r.stdout).to.include(`sent reload to ${server.pid}`);
      await waitFor(() => notices() >= 2);
      await sleep(300);
      expect(notices()).to.equal(2);
      expect((await c.listTools()).tools.map((t) => t.name)).to.include('list_projects');
    } finally {
      stream.close();
    }
  });

  it('logs JSON on stderr with request ids for HTTP requests and tool calls', async function () {
    const logs = server.logs();
    const requests = logs.filter((l) => l.msg === 'http request');
    expect(requests.length).to.be.greaterThan(10);
    for (const l of requests) expect(l.rid).to.be.a('string').that.is.not.empty;
    const calls = logs.filter((l) => l.msg === 'tool call');
    expect(calls.some((l) => l.tool === 'create_project' && l.user === 'alice')).to.equal(true);
    expect(new Set(calls.map((l) => l.rid)).size).to.equal(calls.length);
  });
});

describe('serve --http: session idle expiry and cap (real process)', function () {
  let home: TempHome;
  let server: ServerProcess;

  before(async function () {
    home = tempHome({ http: { auth: 'none', sessionIdleSeconds: 1, maxSessions: 2 } });
    server = await startHttpServer(home);
  });
  after(async function () {
    await server?.stop();
    home?.cleanup();
  });

  const init = () => fetch(server.mcpUrl, { method: 'POST', headers: MCP_HEADERS, body: JSON.stringify(INITIALIZE) });
  const ping = (sid: string) =>
    fetch(server.mcpUrl, {
      method: 'POST',
      headers: { ...MCP_HEADERS, 'mcp-session-id': sid, 'mcp-protocol-version': '2025-11-25' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'ping' }),
    });

  it('refuses a session over http.maxSessions with 503, expires idle ones and then accepts new ones', async function () {
    const first = await init();
    const second = await init();
    await Promise.all([first.text(), second.text()]);
    const sid = first.headers.get('mcp-session-id')!;
    expect([first.status, second.status]).to.deep.equal([200, 200]);
    const third = await init();
    expect(third.status).to.equal(503);
    expect(third.headers.get('retry-after')).to.equal('30');
    await third.text();
    const alive = await ping(sid);
    expect(alive.status).to.equal(200);
    await alive.text();
    await sleep(1700); // idle 1 s, swept every 250 ms
    const health = await json(await fetch(`${server.url}/healthz`));
    expect(health.sessions).to.equal(0);
    const expired = await ping(sid);
    expect(expired.status).to.equal(404);
    await expired.text();
    const fresh = await init();
    expect(fresh.status).to.equal(200);
    await fresh.text();
  });

  it('logs a warning that http.auth is none', function () {
    const warn = server.logs().find((l) => l.level === 40 && /http\.auth is "none"/.test(String(l.msg)));
    expect(warn, server.stderr()).to.not.equal(undefined);
  });
});

/** A response body as JSON, typed loosely for assertions. */
async function json(res: Response): Promise<any> {
  return res.json();
}

async function waitFor(cond: () => boolean, timeoutMs = 5000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await sleep(25);
  }
}
