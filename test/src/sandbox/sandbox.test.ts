import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import { expect } from 'chai';
import { Tokens, type Sandbox } from '@testkeeper/kernel';
import { startTestHost, type TestHost } from '@testkeeper/kernel/testing';
import { isAlive, waitGone } from './processes.js';
// Kernel internals: TMPDIR housekeeping is not part of the plugin API.
import { removeOrphanRunTmpDirs } from '../../../kernel/dist/sandbox/run-tmpdirs.js';

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

  it('gives every run an empty TMPDIR of its own and removes it with what the run left in it', async () => {
    const script = `
      const fs = require('node:fs'), path = require('node:path');
      const dir = process.env.TMPDIR;
      const before = fs.readdirSync(dir);
      fs.mkdirSync(path.join(dir, 'nested', 'deeper'), { recursive: true });
      fs.writeFileSync(path.join(dir, 'nested', 'deeper', 'left.txt'), 'x');
      console.log(JSON.stringify({ dir, before }));`;
    const runs = await Promise.all([1, 2].map(() => sandbox.run({ command: node, args: ['-e', script], cwd: os.tmpdir(), timeoutMs: 10_000 })));
    const seen = runs.map((r) => JSON.parse(r.stdout) as { dir: string; before: string[] });
    expect(seen[0]!.dir).to.not.equal(seen[1]!.dir);
    for (const s of seen) {
      expect(s.before, 'TMPDIR starts empty').to.deep.equal([]);
      expect(existsSync(s.dir), 'TMPDIR and its files are removed after the run').to.equal(false);
    }
  });

  it('never hands a TMPDIR to two runs, also when the next one was made ahead', async () => {
    const script = `const fs = require('node:fs'); fs.writeFileSync(process.env.TMPDIR + '/mark', 'x'); console.log(process.env.TMPDIR);`;
    const dirs: string[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await sandbox.run({ command: node, args: ['-e', script], cwd: os.tmpdir(), timeoutMs: 10_000 });
      expect(res.exitCode).to.equal(0);
      dirs.push(res.stdout.trim());
      await new Promise((r) => setTimeout(r, 20)); // lets the next directory be made ahead
    }
    expect(new Set(dirs).size).to.equal(4);
    for (const d of dirs) expect(existsSync(d)).to.equal(false);
  });

  it('removes a TMPDIR made ahead and never used when the process exits', () => {
    const moduleUrl = new URL('../../../kernel/dist/sandbox/run-tmpdirs.js', import.meta.url).href;
    const child = `import(${JSON.stringify(moduleUrl)}).then(({ RunTmpDirs }) => {
      const dirs = new RunTmpDirs();
      dirs.prepareNext();
      const wait = () => (dirs.spare ? console.log(dirs.spare) : setTimeout(wait, 5));
      wait();
    });`;
    const out = execFileSync(node, ['--input-type=module', '-e', child], { encoding: 'utf8' }).trim();
    expect(out).to.match(/tk-run-/);
    expect(existsSync(out), 'the unused TMPDIR is gone after exit').to.equal(false);
  });

  it('removes the TMPDIRs of a server process that is gone, and only those', async () => {
    const parent = mkdtempSync(path.join(os.tmpdir(), 'tk-tmpdirs-'));
    try {
      const dead = spawnSync('true').pid!;
      mkdirSync(path.join(parent, `tk-run-${dead}-abc123`, 'left', 'over'), { recursive: true });
      mkdirSync(path.join(parent, `tk-run-${process.pid}-def456`));
      mkdirSync(path.join(parent, 'tk-run-ghi789'));
      expect(await removeOrphanRunTmpDirs(parent)).to.equal(1);
      expect(readdirSync(parent).sort()).to.deep.equal([`tk-run-${process.pid}-def456`, 'tk-run-ghi789']);
    } finally {
      rmSync(parent, { recursive: true, force: true });
    }
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

  it('reports arguments the system cannot pass (a NUL byte) instead of throwing', async () => {
    const res = await sandbox.run({ command: node, args: ['-e', 'a\u0000b'], cwd: os.tmpdir(), timeoutMs: 5000 });
    expect(res.exitCode).to.equal(null);
    expect(res.stderr).to.match(/could not start/);
  });
});
