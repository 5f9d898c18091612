import { spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { expect } from 'chai';
import { jsonLines, runCli, startHttpServer, tempHome, type TempHome } from './cli-process.js';

describe('testkeeper CLI commands (real process)', function () {
  let home: TempHome;
  beforeEach(() => (home = tempHome()));
  afterEach(() => home?.cleanup());

  it('migrate applies the migrations of the kernel and every plugin once', async function () {
    const first = await runCli(home, ['migrate']);
    expect(first.code, first.stderr).to.equal(0);
    expect(first.stdout.trim()).to.equal('migrations up to date (sqlite)');
    const owners = jsonLines(first.stderr).filter((l) => l.msg === 'migrations applied').map((l) => l.owner);
    expect(owners).to.include.members(['kernel', 'projects']);
    const second = await runCli(home, ['migrate']);
    expect(second.code).to.equal(0);
    expect(jsonLines(second.stderr).filter((l) => l.msg === 'migrations applied')).to.deep.equal([]);
  });

  it('plugins list shows plugins, toolsets, tools and their enabled state', async function () {
    home.writeConfig({ tools: { deny: ['delete_project'] } });
    const text = await runCli(home, ['plugins', 'list']);
    expect(text.code, text.stderr).to.equal(0);
    expect(text.stdout).to.match(/^projects \(@testkeeper\/plugin-projects@[\d.]+, \w+\): enabled$/m);
    expect(text.stdout).to.match(/^ {2}toolset projects: enabled$/m);
    expect(text.stdout).to.match(/^ {4}\+ list_projects$/m);
    expect(text.stdout).to.match(/^ {4}- delete_project \(.+\)$/m);
    const json = await runCli(home, ['plugins', 'list', '--json']);
    const rows = JSON.parse(json.stdout) as Array<{ id: string; loaded: boolean; toolsets: Array<{ id: string; tools: Array<{ name: string; enabled: boolean }> }> }>;
    const projects = rows.find((r) => r.id === 'projects')!;
    expect(projects.loaded).to.equal(true);
    const tools = projects.toolsets.flatMap((t) => t.tools);
    expect(tools.find((t) => t.name === 'list_projects')?.enabled).to.equal(true);
    expect(tools.find((t) => t.name === 'delete_project')?.enabled).to.equal(false);
  });

  it('an invalid config stops start with exit code 2 and a message naming the key', async function () {
    home.writeConfig({ http: { port: 'eighty' }, tools: { bogus: true } });
    const r = await runCli(home, ['serve', '--http']);
    expect(r.code).to.equal(2);
    expect(r.stderr).to.match(/^testkeeper: \[config_invalid\] Invalid configuration: /);
    expect(r.stderr).to.include('http.port:');
    expect(r.stderr).to.include('bogus');
    expect(r.stderr, 'no stack trace').to.not.match(/\n\s+at /);
    expect(r.stdout).to.equal('');
    home.writeConfig({});
    const env = await runCli(home, ['serve', '--http'], { env: { TESTKEEPER_PORT: 'abc' } });
    expect(env.code).to.equal(2);
    expect(env.stderr).to.include('http.port');
    const badJson = await runCli(home, ['migrate', '--config', path.join(home.dataDir, 'missing.json')], { config: false });
    expect(badJson.code).to.equal(2);
    expect(badJson.stderr).to.match(/missing\.json does not exist/);
  });

  it('an unreachable or unsupported database stops start with a readable error that hides the password', async function () {
    const down = await runCli(home, ['migrate'], { env: { TESTKEEPER_STORAGE_URL: 'postgres://postgres:hunter22@127.0.0.1:1/nope' } });
    expect(down.code).to.equal(2);
    expect(down.stderr).to.include('testkeeper: [storage_unavailable] Cannot open the database at postgres://postgres:***@127.0.0.1:1/nope');
    expect(down.stderr).to.not.include('hunter22');
    expect(down.stderr, 'no stack trace').to.not.match(/\n\s+at /);
    const mysql = await runCli(home, ['migrate'], { env: { TESTKEEPER_STORAGE_URL: 'mysql://root@127.0.0.1/test' } });
    expect(mysql.code).to.equal(2);
    expect(mysql.stderr).to.include('[config_invalid] storage.url must be a postgres:// URL');
  });

  it('a port already in use stops start with exit code 2 and a readable message, not a stack trace', async function () {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', () => resolve()));
    const port = (blocker.address() as { port: number }).port;
    try {
      const r = await runCli(home, ['serve', '--http', '--port', String(port)]);
      expect(r.code).to.equal(2);
      expect(r.stderr).to.include(`testkeeper: [port_in_use] 127.0.0.1:${port} is already in use`);
      expect(r.stderr, 'no stack trace').to.not.match(/\n\s+at /);
      expect(r.stdout).to.equal('');
    } finally {
      blocker.close();
    }
  });

  it('refuses http.auth "none" on a non-loopback bind with a readable error', async function () {
    home.writeConfig({ http: { auth: 'none' } });
    const r = await runCli(home, ['serve', '--http', '--port', '0', '--host', '0.0.0.0']);
    expect(r.code).to.equal(2);
    expect(r.stderr).to.include('http.auth "none" is only allowed on a loopback bind');
    expect(r.stderr).to.include('0.0.0.0');
    expect(r.stdout).to.equal('');
  });

  it('rejects bad usage with exit code 2', async function () {
    const cases: Array<[string[], RegExp]> = [
      [['serve'], /serve needs --stdio or --http/],
      [['serve', '--http', '--port', '70000'], /--port must be an integer 0-65535/],
      [['token', 'create'], /token create needs --user NAME/],
      [['token', 'create', '--user', 'a b'], /--user must be 1-100 of/],
      [['token', 'revoke', '--id', 'abc'], /--id must be a token id/],
      [['token', 'frobnicate'], /expected create, revoke or list/],
      [['reload'], /No running HTTP server found/],
      [['bogus'], /Unknown command "bogus"/],
      [['serve', '--nope'], /Unknown option '--nope'/],
    ];
    const results = await Promise.all(cases.map(([args]) => runCli(home, args)));
    cases.forEach(([args, message], i) => {
      expect(results[i]!.code, args.join(' ')).to.equal(2);
      expect(results[i]!.stderr, args.join(' ')).to.match(message);
    });
  });

  it('token create prints the secret once on stdout; token list never shows it', async function () {
    const r = await runCli(home, ['token', 'create', '--user', 'dana', '--label', 'ci']);
    expect(r.code, r.stderr).to.equal(0);
    const token = r.stdout.trim();
    expect(token).to.match(/^tk_[A-Za-z0-9_-]{43}$/);
    expect(r.stderr).to.match(/Token 1 for user "dana"; shown only now/);
    const list = await runCli(home, ['token', 'list']);
    expect(list.stdout).to.match(/^1\ttk_\S+…\tdana\tlive\t\S+\tci$/m);
    expect(list.stdout).to.not.include(token);
    const revoke = await runCli(home, ['token', 'revoke', '--user', 'dana']);
    expect(revoke.stdout).to.include('revoked 1 token(s)');
    expect((await runCli(home, ['token', 'list'])).stdout).to.match(/\tdana\trevoked\t/);
  });

  it('prints the first-start token only on the very first start, and removes its pid file on SIGTERM', async function () {
    const first = await startHttpServer(home);
    await first.waitForStderr(/More tokens:/);
    const pidFile = path.join(home.dataDir, 'testkeeper.pid');
    expect(existsSync(pidFile)).to.equal(true);
    expect(await first.stop()).to.equal(0);
    expect(existsSync(pidFile)).to.equal(false);
    const second = await startHttpServer(home);
    await second.waitForStderr(/http server listening/);
    expect(await second.stop()).to.equal(0);
    expect(second.stderr()).to.not.include('First start');
    expect(second.stderr()).to.not.match(/tk_[A-Za-z0-9_-]{43}/);
  });

  it('serve --http listens on TESTKEEPER_PORT', async function () {
    const port = await freePort();
    const server = await startHttpServer(home, [], { TESTKEEPER_PORT: String(port) });
    try {
      expect(new URL(server.url).port).to.equal(String(port));
      expect((await fetch(`${server.url}/healthz`)).status).to.equal(200);
    } finally {
      await server.stop();
    }
  });

  it('reload reports a stale pid file instead of signalling nothing', async function () {
    const gone = spawnSync(process.execPath, ['-e', '0']).pid!;
    writeFileSync(path.join(home.dataDir, 'testkeeper.pid'), String(gone));
    const r = await runCli(home, ['reload']);
    expect(r.code).to.equal(2);
    expect(r.stderr).to.include(`(pid ${gone}) is not running`);
  });
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}
