import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { onEachBackend, requireToolchain, startTestHost, type TestClient, type TestHost } from '@testkeeper/kernel/testing';
import { frameworkDir } from '@testkeeper/plugin-scripts/frameworks';
import { newProject, newScript, PY_SCRIPT } from './helpers.js';
import { unzip } from './unzip.js';

const run = promisify(execFile);

async function toolVersion(cmd: string, args: string[]): Promise<string | null> {
  try {
    await run(cmd, args, { timeout: 20_000 });
    return null;
  } catch (err) {
    return `${cmd} is not available: ${(err as Error).message.split('\n')[0]}`;
  }
}

const RUST_TEST = ['#[test]', 'fn adds() {', '    assert_eq!(1 + 1, 2);', '}', ''].join('\n');
const GO_TEST = ['package smoke', '', 'import "testing"', '', 'func TestAdds(t *testing.T) {', '\tif 1+1 != 2 {', '\t\tt.Fatal("math")', '\t}', '}', ''].join('\n');

onEachBackend(describe, before, 'frameworks', (backend) => {
  let host: TestHost;
  let bob: TestClient;
  let projectId: number;
  const tmp: string[] = [];

  before(async () => {
    host = await startTestHost({ storage: backend });
    bob = await host.clientFor('bob');
    projectId = await newProject(host);
  });
  after(async () => {
    await host?.close();
    for (const d of tmp) rmSync(d, { recursive: true, force: true });
  });

  describe('add_script_to_framework', () => {
    it('creates a runnable Playwright project and writes the test file', async () => {
      const s = await newScript(host, projectId, { name: 'Checkout: pays with card!' });
      const res = await host.ok('add_script_to_framework', { script_id: s.id });
      expect(res).to.include({ framework: 'browser', framework_created: true, file: `tests/checkout_pays_with_card_${s.id}.spec.ts` });
      const dir = frameworkDir(host.dataDir, projectId, 'browser');
      expect(res.framework_dir).to.equal(dir);
      expect(readFileSync(path.join(dir, res.file), 'utf8')).to.equal(s.code);
      const pkg = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8'));
      expect(pkg.devDependencies).to.have.property('@playwright/test');
      expect(readFileSync(path.join(dir, 'playwright.config.ts'), 'utf8')).to.contain('baseURL: process.env.BASE_URL');
      const again = await host.ok('add_script_to_framework', { script_id: s.id, framework: 'browser' });
      expect(again).to.include({ framework_created: false, file: res.file });
    });

    it('derives safe names: no traversal, and a rename replaces the old file', async () => {
      const s = await newScript(host, projectId, { name: '../../../etc/passwd' });
      const res = await host.ok('add_script_to_framework', { script_id: s.id });
      expect(res.file).to.equal(`tests/etc_passwd_${s.id}.spec.ts`);
      await host.ok('update_script', { script_id: s.id, name: 'Renamed test' });
      const renamed = await host.ok('add_script_to_framework', { script_id: s.id });
      expect(renamed.file).to.equal(`tests/renamed_test_${s.id}.spec.ts`);
      expect(renamed.replaced).to.deep.equal([res.file]);
      const files = readdirSync(path.join(frameworkDir(host.dataDir, projectId, 'browser'), 'tests'));
      expect(files.filter((f) => f.endsWith(`_${s.id}.spec.ts`))).to.deep.equal([`renamed_test_${s.id}.spec.ts`]);
    });

    it('two scripts with the same name get different files', async () => {
      const a = await newScript(host, projectId, { name: 'Same' });
      const b = await newScript(host, projectId, { name: 'Same' });
      const fa = (await host.ok('add_script_to_framework', { script_id: a.id })).file;
      const fb = (await host.ok('add_script_to_framework', { script_id: b.id })).file;
      expect(fa).to.not.equal(fb);
    });

    it('falls back to browser for an unknown framework and says so', async () => {
      const s = await newScript(host, projectId);
      const res = await host.call('add_script_to_framework', { script_id: s.id, framework: 'cypress-ng' });
      expect(res.success).to.equal(true);
      expect(res.result).to.include({ framework: 'browser', fell_back_from: 'cypress-ng' });
    });

    it("rejects a framework that does not match the script's language", async () => {
      const s = await newScript(host, projectId, { framework: 'pytest', code: PY_SCRIPT });
      const res = await host.call('add_script_to_framework', { script_id: s.id, framework: 'go_test' });
      expect(res.error?.code).to.equal('invalid_argument');
      expect(res.error?.message).to.contain('pytest script');
    });

    it('rejects bad input and hides foreign scripts', async () => {
      const s = await newScript(host, projectId);
      for (const args of [{}, { script_id: 'x' }, { script_id: 0 }, { script_id: s.id, framework: 5 }]) {
        expect((await host.call('add_script_to_framework', args)).error?.code, JSON.stringify(args)).to.equal('invalid_argument');
      }
      const foreign = await bob.call('add_script_to_framework', { script_id: s.id });
      expect(foreign.error).to.deep.include({ code: 'not_found', message: `script ${s.id} was not found` });
    });

    it('delete_script removes its file', async () => {
      const s = await newScript(host, projectId, { name: 'to delete' });
      const { file } = await host.ok('add_script_to_framework', { script_id: s.id });
      const abs = path.join(frameworkDir(host.dataDir, projectId, 'browser'), file);
      expect(existsSync(abs)).to.equal(true);
      await host.ok('delete_script', { script_id: s.id });
      expect(existsSync(abs)).to.equal(false);
    });
  });

  describe('export_framework', () => {
    it('exports a pytest framework that runs with python3 -m pytest', async function () {
      requireToolchain(this, await toolVersion('python3', ['-m', 'pytest', '--version']));
      const p = await newProject(host);
      const s = await newScript(host, p, { framework: 'pytest', name: 'adds up', code: PY_SCRIPT });
      await newScript(host, p, { framework: 'pytest', name: 'not added', code: 'def test_never():\n    assert False\n' });
      await host.ok('add_script_to_framework', { script_id: s.id });
      const zip = await host.ok('export_framework', { project_id: p, framework: 'pytest' });
      expect(zip.size_bytes).to.equal(statSync(zip.path).size).and.be.greaterThan(0);
      const dest = mkdtempSync(path.join(os.tmpdir(), 'tk-unzip-'));
      tmp.push(dest, path.dirname(zip.path));
      const names = await unzip(zip.path, dest);
      const root = path.join(dest, `project-${p}-pytest`);
      expect(names).to.include.members([`project-${p}-pytest/README.md`, `project-${p}-pytest/pytest.ini`, `project-${p}-pytest/conftest.py`]);
      expect(readFileSync(path.join(root, 'README.md'), 'utf8')).to.contain('python3 -m pytest');
      const { stdout } = await run('python3', ['-m', 'pytest', '-q', '-p', 'no:cacheprovider'], { cwd: root, timeout: 60_000 });
      expect(stdout).to.match(/1 passed/);
    });

    it('exports rust_cargo and go_test frameworks that pass with cargo test / go test', async function () {
      this.timeout(240_000);
      const missing = (await toolVersion('cargo', ['--version'])) ?? (await toolVersion('go', ['version']));
      requireToolchain(this, missing);
      const p = await newProject(host);
      const r = await newScript(host, p, { framework: 'rust_cargo', name: 'rust adds', code: RUST_TEST });
      const g = await newScript(host, p, { framework: 'go_test', name: 'go adds', code: GO_TEST });
      await host.ok('add_script_to_framework', { script_id: r.id });
      await host.ok('add_script_to_framework', { script_id: g.id });
      for (const [framework, cmd, args, expectOut] of [
        ['rust_cargo', 'cargo', ['test', '--offline'], /test result: ok\. 1 passed/],
        ['go_test', 'go', ['test', './...'], /^ok\s/m],
      ] as const) {
        const zip = await host.ok('export_framework', { project_id: p, framework });
        const dest = mkdtempSync(path.join(os.tmpdir(), 'tk-unzip-'));
        tmp.push(dest, path.dirname(zip.path));
        await unzip(zip.path, dest);
        const cwd = path.join(dest, `project-${p}-${framework}`);
        const out = await run(cmd, [...args], { cwd, timeout: 200_000, env: { ...process.env, GOFLAGS: '-mod=mod', GOCACHE: path.join(dest, '.gocache') } });
        expect(out.stdout + out.stderr).to.match(expectOut);
      }
    });

    it('rejects a framework that does not exist yet, bad values and foreign projects', async () => {
      const p = await newProject(host);
      const none = await host.call('export_framework', { project_id: p, framework: 'pytest' });
      expect(none.error?.code).to.equal('invalid_argument');
      expect(none.error?.hint).to.contain('add_script_to_framework');
      const bad = await host.call('export_framework', { project_id: p, framework: 'jest' });
      expect(bad.error?.hint).to.contain('browser, pytest, rust_cargo, go_test');
      expect((await host.call('export_framework', {})).error?.code).to.equal('invalid_argument');
      const foreign = await bob.call('export_framework', { project_id: projectId });
      expect(foreign.error).to.deep.include({ code: 'not_found', message: `project ${projectId} was not found` });
    });
  });

  describe('project deletion', () => {
    it('removes scripts and framework directories of a deleted project', async () => {
      const p = await newProject(host);
      const s = await newScript(host, p, { framework: 'pytest', code: PY_SCRIPT });
      await host.ok('add_script_to_framework', { script_id: s.id });
      const dir = frameworkDir(host.dataDir, p, 'pytest');
      expect(existsSync(dir)).to.equal(true);
      const summary = await host.ok('get_project_summary', { project_id: p, fields: ['statistics'] });
      expect(summary.statistics.scripts).to.equal(1);
      await host.ok('delete_project', { project_id: p });
      expect((await host.call('get_script', { script_id: s.id })).error?.code).to.equal('not_found');
      expect(existsSync(path.dirname(dir))).to.equal(false);
    });
  });
});
