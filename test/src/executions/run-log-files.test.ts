import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { RunLogFiles } from '../../../plugins/scripts/dist/executions/run-log-files.js';

describe('executions: run log files', () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(path.join(os.tmpdir(), 'tk-logs-'));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('names the files of every run up front and writes each run\'s stdout and stderr', async () => {
    const dir = path.join(root, 'executions', '7', 'exe_1');
    const logs = new RunLogFiles(dir, ['1-rust_cargo', '2-go_test']);
    expect(logs.files(1)).to.deep.equal([path.join(dir, '2-go_test.stdout.log'), path.join(dir, '2-go_test.stderr.log')]);
    await logs.write(0, 'out ✓', '');
    await logs.write(1, 'go out', 'go err');
    await logs.discardUnwritten();
    expect([...logs.files(0), ...logs.files(1)].map((f) => readFileSync(f, 'utf8'))).to.deep.equal(['out ✓', '', 'go out', 'go err']);
  });

  it('removes the files of runs that never happened (the execution stopped early)', async () => {
    const dir = path.join(root, 'exe_2');
    const logs = new RunLogFiles(dir, ['1-rust_cargo', '2-go_test']);
    await logs.write(0, 'out', 'err');
    await logs.discardUnwritten();
    expect(readdirSync(dir).sort()).to.deep.equal(['1-rust_cargo.stderr.log', '1-rust_cargo.stdout.log']);
    for (const f of logs.files(1)) expect(existsSync(f)).to.equal(false);
  });

  it('reports a directory that cannot be made through write', async () => {
    const blocker = path.join(root, 'a-file');
    writeFileSync(blocker, '');
    const logs = new RunLogFiles(path.join(blocker, 'exe_3'), ['1-go_test']);
    let error: unknown;
    await logs.write(0, 'out', 'err').catch((err: unknown) => (error = err));
    expect((error as NodeJS.ErrnoException)?.code).to.equal('ENOTDIR');
    await logs.discardUnwritten();
  });
});
