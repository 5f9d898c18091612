import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { ScriptRunners, type RunRequest, type ScriptRunner } from '@testkeeper/kernel';
import { requireToolchain, startTestHost, type TestHost } from '@testkeeper/kernel/testing';
import { waitGone } from '../sandbox/processes.js';
import { copyFixture, removeFixtureCopies } from './fixtures.js';

const BASE_URL = 'http://127.0.0.1:8080/app';

describe('runner-native runners on real toolchains', function () {
  this.timeout(180_000);
  let host: TestHost;
  const cacheDir = mkdtempSync(path.join(os.tmpdir(), 'tk-cache-'));
  const runner = (id: string) => host.kernel.extensions.view(ScriptRunners).select(id) as ScriptRunner;
  const request = (framework: string, frameworkDir: string, extra: Partial<RunRequest> = {}): RunRequest => ({
    framework,
    projectId: 1,
    frameworkDir,
    baseUrl: BASE_URL,
    timeoutMs: 120_000,
    cacheDir,
    ...extra,
  });
  const needs = async (ctx: Mocha.Context, id: string, framework: string) => {
    const a = await runner(id).availability(framework);
    requireToolchain(ctx, a.available ? null : `${id}: ${a.reason}`);
  };

  before(async () => {
    host = await startTestHost();
  });
  after(async () => {
    await host?.close();
    rmSync(cacheDir, { recursive: true, force: true });
    removeFixtureCopies();
  });

  it('contributes cargo, go and pytest runners that report their toolchain version', async () => {
    expect(host.kernel.extensions.view(ScriptRunners).ids()).to.include.members(['cargo', 'go', 'pytest']);
    expect(runner('cargo').frameworks).to.deep.equal(['rust_cargo']);
    const a = await runner('cargo').availability('rust_cargo');
    if (a.available) expect(a.version).to.match(/^cargo \d+\.\d+/);
    else expect(a.reason).to.match(/rustup/);
  });

  describe('cargo', () => {
    beforeEach(async function () {
      await needs(this, 'cargo', 'rust_cargo');
    });

    it('runs the whole crate: counts equal the sum of libtest summaries, BASE_URL is exported', async () => {
      const res = await runner('cargo').run(request('rust_cargo', copyFixture('crate')));
      expect(res.status).to.equal('failed');
      // lib 2/1/1, tests/api.rs 2/0/1 (BASE_URL set), doc-tests 1/0/0
      expect({ passed: res.passed, failed: res.failed, skipped: res.skipped, total: res.total }).to.deep.equal({ passed: 5, failed: 1, skipped: 2, total: 8 });
      const summaries = [...res.stdout.matchAll(/^test result: \w+\. (\d+) passed; (\d+) failed; (\d+) ignored/gm)];
      expect(summaries).to.have.length(3);
      expect(summaries.reduce((n, m) => n + Number(m[1]) + Number(m[2]) + Number(m[3]), 0)).to.equal(res.total);
      expect(res.tests.find((t) => t.name === 'base_url_is_exported')?.status).to.equal('passed');
      expect(res.exit_code).to.equal(101);
      expect(res.tool_version).to.match(/^cargo /);
      expect(res.console_logs.at(-1)).to.match(/^rust_cargo: 5 passed, 1 failed, 2 skipped, 8 total in [\d.]+ s \(failed\)$/);
      expect(res.console_logs).to.include('FAIL tests::deliberately_fails (0 ms): panicked at src/lib.rs:26:9:');
    });

    it('runs only one integration test file, reusing the cached target dir', async () => {
      const dir = copyFixture('crate');
      const res = await runner('cargo').run(request('rust_cargo', dir, { files: ['tests/api.rs'] }));
      expect({ status: res.status, passed: res.passed, failed: res.failed, skipped: res.skipped }).to.deep.equal({ status: 'passed', passed: 2, failed: 0, skipped: 1 });
      expect(res.stderr).to.match(/Running tests\/api\.rs/).and.not.match(/Doc-tests/);
    });

    it('reports a compile error as an error, not as zero tests', async () => {
      const res = await runner('cargo').run(request('rust_cargo', copyFixture('crate-broken')));
      expect(res.status).to.equal('error');
      expect(res.error).to.match(/^compile error: error\[E0425\]/);
      expect(res.console_logs.some((l) => l.startsWith('ERROR compile error'))).to.equal(true);
    });

    it('rejects a file that is not a cargo test target', async () => {
      const dir = copyFixture('crate');
      let err: unknown;
      await runner('cargo').run(request('rust_cargo', dir, { files: ['Cargo.toml'] })).catch((e) => (err = e));
      expect((err as { code?: string }).code).to.equal('invalid_argument');
      await runner('cargo').run(request('rust_cargo', dir, { files: ['../../etc/passwd'] })).catch((e) => (err = e));
      expect((err as Error).message).to.match(/outside the framework directory/);
    });
  });

  describe('go', () => {
    beforeEach(async function () {
      await needs(this, 'go', 'go_test');
    });

    it('runs ./... and counts test and subtest events', async () => {
      const res = await runner('go').run(request('go_test', copyFixture('gomod')));
      expect(res.status).to.equal('failed');
      expect({ passed: res.passed, failed: res.failed, skipped: res.skipped, total: res.total }).to.deep.equal({ passed: 6, failed: 1, skipped: 1, total: 8 });
      expect(res.tests.find((t) => t.name === 'example.com/tkfixture.TestBaseURL')?.status).to.equal('passed');
      expect(res.tool_version).to.match(/^go version go1\./);
    });

    it('runs only the tests of one file', async () => {
      const dir = copyFixture('gomod');
      const res = await runner('go').run(request('go_test', dir, { files: ['sub/sub_test.go'] }));
      expect(res.tests.map((t) => [t.name, t.status])).to.deep.equal([['example.com/tkfixture/sub.TestSubPackagePasses', 'passed']]);
      expect(res.status).to.equal('passed');
    });

    it('reports a build failure', async () => {
      const res = await runner('go').run(request('go_test', copyFixture('gomod-broken')));
      expect(res.status).to.equal('error');
      expect(res.error).to.match(/^build failed: /).and.match(/not an int/);
    });
  });

  describe('pytest', () => {
    beforeEach(async function () {
      await needs(this, 'pytest', 'pytest');
    });

    it('runs the project through JUnit XML; counts match pytest', async () => {
      const res = await runner('pytest').run(request('pytest', copyFixture('pytest')));
      expect(res.status).to.equal('failed');
      expect({ passed: res.passed, failed: res.failed, skipped: res.skipped, total: res.total }).to.deep.equal({ passed: 3, failed: 1, skipped: 1, total: 5 });
      expect(res.stdout).to.match(/1 failed, 3 passed, 1 skipped/);
      expect(res.tests.find((t) => t.name === 'test_sample::test_fails')?.failure_message).to.match(/the dictionaries differ/);
      expect(res.tool_version).to.match(/^pytest \d/);
    });

    it('kills a hung test and the grandchild sleep it started at the timeout', async () => {
      const dir = copyFixture('pytest-hang');
      const res = await runner('pytest').run(request('pytest', dir, { timeoutMs: 4000 }));
      expect(res.status).to.equal('timed_out');
      expect(res.error).to.match(/timed out after 4000 ms/);
      const [testPid, sleepPid] = readFileSync(path.join(dir, 'pids.txt'), 'utf8').trim().split(' ').map(Number);
      expect(await waitGone(testPid!), 'the pytest process is gone').to.equal(true);
      expect(await waitGone(sleepPid!), 'the grandchild sleep is gone').to.equal(true);
    });
  });
});
