import { spawn } from 'node:child_process';
import { expect } from 'chai';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { CLI, envelopeOf, jsonLines, runCli, sleep, tempHome, type TempHome } from './cli-process.js';

describe('serve --stdio (real process)', function () {
  let home: TempHome;
  let client: Client;
  let transport: StdioClientTransport;
  let stderr = '';
  const base = { log: { level: 'debug' }, stdio: { user: 'ops' } };

  before(async function () {
    home = tempHome(base);
    transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'serve', '--stdio', '--config', home.configFile],
      env: home.env() as Record<string, string>,
      stderr: 'pipe',
    });
    transport.stderr!.on('data', (d) => (stderr += d));
    client = new Client({ name: 'stdio-test', version: '1.0.0' });
    await client.connect(transport);
  });

  after(async function () {
    await client?.close();
    home?.cleanup();
  });

  it('lists and calls tools as the configured local user', async function () {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).to.include.members(['list_projects', 'create_project']);
    const created = envelopeOf(await client.callTool({ name: 'create_project', arguments: { name: 'Local App', force_create: true } }));
    expect(created.success, JSON.stringify(created)).to.equal(true);
    const listed = envelopeOf(await client.callTool({ name: 'list_projects', arguments: {} }));
    expect(listed.result.items.map((p: { name: string }) => p.name)).to.deep.equal(['Local App']);
    const bad = await client.callTool({ name: 'get_project_summary', arguments: { project_id: 'x' } });
    expect(bad.isError).to.equal(true);
    expect(envelopeOf(bad).error?.code).to.equal('invalid_argument');
  });

  it('logs pino JSON with request ids on stderr only', async function () {
    await client.callTool({ name: 'list_projects', arguments: {} });
    await sleep(200);
    const lines = stderr.split('\n').filter(Boolean);
    expect(lines.length).to.be.greaterThan(0);
    for (const l of lines) expect(() => JSON.parse(l), l).to.not.throw();
    const calls = jsonLines(stderr).filter((l) => l.msg === 'tool call');
    expect(calls.length).to.be.at.least(3);
    for (const c of calls) {
      expect(c.rid).to.be.a('string').that.is.not.empty;
      expect(c.user).to.equal('ops');
    }
  });

  it('SIGHUP applies tools.deny and sends exactly one notifications/tools/list_changed', async function () {
    let notices = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      notices++;
    });
    home.writeConfig({ ...base, tools: { deny: ['list_projects'] } });
    process.kill(transport.pid!, 'SIGHUP');
    const until = Date.now() + 5000;
    while (notices === 0 && Date.now() < until) await sleep(25);
    await sleep(300);
    expect(notices).to.equal(1);
    expect((await client.listTools()).tools.map((t) => t.name)).to.not.include('list_projects');
    // A reload that changes nothing sends nothing.
    process.kill(transport.pid!, 'SIGHUP');
    await sleep(400);
    expect(notices).to.equal(1);
  });
});

describe('serve --stdio: stdout carries only JSON-RPC (raw pipes)', function () {
  let home: TempHome;
  before(() => (home = tempHome({ log: { level: 'debug' } })));
  after(() => home?.cleanup());

  it('writes only JSON-RPC 2.0 messages to stdout, never a token banner, even on a first start', async function () {
    const child = spawn(process.execPath, [CLI, 'serve', '--stdio', '--config', home.configFile], { env: home.env(), stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const send = (m: unknown) => child.stdin.write(JSON.stringify(m) + '\n');
    const waitForId = async (id: number) => {
      const until = Date.now() + 15_000;
      while (!stdout.split('\n').some((l) => l.includes(`"id":${id}`))) {
        if (Date.now() > until || child.exitCode !== null) throw new Error(`no response ${id}; stderr:\n${stderr}`);
        await sleep(20);
      }
    };
    send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
    await waitForId(1);
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'list_projects', arguments: {} } });
    send({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'no_such_tool', arguments: {} } });
    await waitForId(3);
    const exited = new Promise<number | null>((r) => child.once('exit', r));
    child.stdin.end();
    expect(await exited).to.equal(0);

    const lines = stdout.split('\n').filter(Boolean);
    expect(lines).to.have.length(3);
    const messages = lines.map((l) => JSON.parse(l));
    for (const m of messages) expect(m.jsonrpc).to.equal('2.0');
    const byId = new Map(messages.map((m) => [m.id, m]));
    expect(byId.get(1).result.serverInfo.name).to.equal('testkeeper');
    expect(byId.get(2).result?.structuredContent.success, JSON.stringify(byId.get(2))).to.equal(true);
    expect(byId.get(3).error.code).to.equal(-32602);
    expect(stdout + stderr).to.not.match(/tk_[A-Za-z0-9_-]{20,}/);
    expect(stderr).to.not.include('First start');
    // stdio never issues a token.
    const tokens = await runCli(home, ['token', 'list', '--json']);
    expect(JSON.parse(tokens.stdout)).to.deep.equal([]);
  });
});
