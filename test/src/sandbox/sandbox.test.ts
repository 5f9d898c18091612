import { existsSync } from 'node:fs';
import os from 'node:os';
import { expect } from 'chai';
import { Tokens, type Sandbox } from '@testkeeper/kernel';
import { startTestHost, type TestHost } from '@testkeeper/kernel/testing';
import { isAlive, waitGone } from './processes.js';

const node = process.execPath;

describe('sandbox (Tokens.Sandbox)', function () {
  this.timeout(20_000);
  let host: TestHost;
  let sandbox: Sandbox;
  const saved: Record<string, string | undefined> = {};

  before(async () => {
    // The "server's" secrets: present in this process, must never reach a test subprocess.
    for (const [k, v] of Object.entries({ TESTKEEPER_SECRET_KEY: 'sk-server-secret', DATABASE_URL: 'postgres://u:pw@db/x', GITHUB_TOKEN: 'ghp_secret' })) {
      saved[k] = process.env[k];
      process.env[k] = v;
    }
    host = await startTestHost();
    sandbox = host.kernel.container.resolve(Tokens.Sandbox);
  });
  after(async () => {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    await host?.close();
  });

  it('passes arguments as an array, never through a shell', async () => {
    const args = ['a b', '$(touch /tmp/should-not-exist-tk)', '; echo hi', '*'];
    const res = await sandbox.run({ command: node, args: ['-e', 'console.log(JSON.stringify(process.argv.slice(1)))', ...args], cwd: os.tmpdir(), timeoutMs: 10_000 });
    expect(res.exitCode).to.equal(0);
    expect(JSON.parse(res.stdout)).to.deep.equal(args);
    expect(existsSync('/tmp/should-not-exist-tk')).to.equal(false);
  });

  it('builds the environment from an allowlist: no server secrets, extras and a per-run TMPDIR', async () => {
    const res = await sandbox.run({
      command: 'env',
      args: [],
      cwd: os.tmpdir(),
      env: { BASE_URL: 'http://127.0.0.1:9/app', TESTKEEPER_SNEAKY: 'x' },
      timeoutMs: 10_000,
    });
    expect(res.exitCode).to.equal(0);
    const env = Object.fromEntries(res.stdout.trim().split('\n').map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]));
    expect(env).to.not.have.any.keys('TESTKEEPER_SECRET_KEY', 'DATABASE_URL', 'GITHUB_TOKEN', 'TESTKEEPER_SNEAKY');
    expect(res.stdout).to.not.include('sk-server-secret').and.not.include('ghp_secret').and.not.include('pw@db');
    expect(Object.keys(env).filter((k) => k.startsWith('TESTKEEPER_'))).to.deep.equal([]);
    expect(env.BASE_URL).to.equal('http://127.0.0.1:9/app');
    expect(env.PATH).to.equal(process.env.PATH);
    expect(env.TMPDIR).to.match(/tk-run-/);
    expect(existsSync(env.TMPDIR!), 'per-run TMPDIR is removed after the run').to.equal(false);
  });

  it('kills the whole process group at the timeout: the hung child and its grandchild sleep', async () => {
    const script = `
      const { spawn } = require('node:child_process');
      const g = spawn('sleep', ['300'], { stdio: 'ignore' });
      console.log(JSON.stringify({ child: process.pid, grandchild: g.pid }));
      setInterval(() => {}, 1000);`;
    const t0 = Date.now();
    const res = await sandbox.run({ command: node, args: ['-e', script], cwd: os.tmpdir(), timeoutMs: 1500 });
    expect(Date.now() - t0).to.be.lessThan(6000);
    expect(res.timedOut).to.equal(true);
    expect(res.cancelled).to.equal(false);
    expect(res.signal).to.equal('SIGKILL');
    const pids = JSON.parse(res.stdout.trim()) as { child: number; grandchild: number };
    expect(await waitGone(pids.child), 'child is gone').to.equal(true);
    expect(await waitGone(pids.grandchild), 'grandchild sleep is gone').to.equal(true);
  });

  it('leaves no background process behind when the run ends normally', async () => {
    const script = `
      const { spawn } = require('node:child_process');
      const g = spawn('sleep', ['300'], { stdio: 'ignore', detached: false });
      g.unref();
      console.log(g.pid);`;
    const res = await sandbox.run({ command: node, args: ['-e', script], cwd: os.tmpdir(), timeoutMs: 10_000 });
    expect(res.exitCode).to.equal(0);
    expect(res.timedOut).to.equal(false);
    const pid = Number(res.stdout.trim());
    expect(pid).to.be.greaterThan(0);
    expect(await waitGone(pid)).to.equal(true);
  });

  it('does not wait for a grandchild that holds the output pipe open', async () => {
    const script = `
      const { spawn } = require('node:child_process');
      const g = spawn('sleep', ['300'], { stdio: ['ignore', 'inherit', 'inherit'] });
      console.log(g.pid);
      process.exit(3);`;
    const t0 = Date.now();
    const res = await sandbox.run({ command: node, args: ['-e', script], cwd: os.tmpdir(), timeoutMs: 20_000 });
    expect(Date.now() - t0).to.be.lessThan(5000);
    expect(res.exitCode).to.equal(3);
    expect(await waitGone(Number(res.stdout.trim()))).to.equal(true);
  });

  it('caps output with a visible marker and keeps draining so the child finishes', async () => {
    const res = await sandbox.run({
      command: node,
      args: ['-e', "process.stdout.write('x'.repeat(3_000_000)); process.stderr.write('done')"],
      cwd: os.tmpdir(),
      timeoutMs: 10_000,
      maxOutputBytes: 1000,
    });
    expect(res.exitCode).to.equal(0);
    expect(res.truncated).to.equal(true);
    expect(res.stdout.startsWith('x'.repeat(1000) + '\n[output truncated')).to.equal(true);
    expect(res.stdout).to.include('2999000 more bytes not shown');
    expect(res.stderr).to.equal('done');
  });

  it('cancels through the abort signal', async () => {
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 300);
    const res = await sandbox.run({ command: node, args: ['-e', 'console.log(process.pid); setInterval(()=>{},1000)'], cwd: os.tmpdir(), timeoutMs: 10_000, signal: ac.signal });
    expect(res.cancelled).to.equal(true);
    expect(res.timedOut).to.equal(false);
    expect(isAlive(Number(res.stdout.trim()))).to.equal(false);
  });

  it('reports a command that cannot start instead of throwing', async () => {
    const res = await sandbox.run({ command: 'definitely-not-a-command-tk', args: [], cwd: os.tmpdir(), timeoutMs: 5000 });
    expect(res.exitCode).to.equal(null);
    expect(res.stderr).to.match(/could not start definitely-not-a-command-tk/);
  });
});
