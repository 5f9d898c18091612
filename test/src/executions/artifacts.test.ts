import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { hashTree } from '../../../plugins/scripts/dist/executions/artifacts.js';

describe('executions: framework revision hash', () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(path.join(os.tmpdir(), 'tk-tree-'));
    mkdirSync(path.join(root, 'tests'));
    mkdirSync(path.join(root, 'target'));
    writeFileSync(path.join(root, 'Cargo.toml'), '[package]\n');
    writeFileSync(path.join(root, 'tests', 'a.rs'), 'fn a() {}\n');
    writeFileSync(path.join(root, 'target', 'build.bin'), 'ignored');
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  /** The documented content: every source file's path and bytes, in name order. */
  function expected(files: Array<[string, string]>): string {
    const h = createHash('sha256');
    for (const [rel, content] of files) h.update(rel).update('\0').update(content).update('\0');
    return h.digest('hex');
  }

  it('hashes every source file by path and content, skipping build output', async () => {
    expect(await hashTree(root)).to.equal(expected([['Cargo.toml', '[package]\n'], ['tests/a.rs', 'fn a() {}\n']]));
    expect(await hashTree(path.join(root, 'missing'))).to.equal(null);
  });

  it('stays the same for an unchanged tree and follows every change, also a same-size rewrite', async () => {
    const first = await hashTree(root);
    expect(await hashTree(root)).to.equal(first);
    writeFileSync(path.join(root, 'tests', 'a.rs'), 'fn b() {}\n'); // same size
    const rewritten = await hashTree(root);
    expect(rewritten).to.equal(expected([['Cargo.toml', '[package]\n'], ['tests/a.rs', 'fn b() {}\n']]));
    writeFileSync(path.join(root, 'tests', 'b.rs'), 'x');
    const added = await hashTree(root);
    expect(added).to.not.equal(rewritten);
    unlinkSync(path.join(root, 'tests', 'b.rs'));
    expect(await hashTree(root)).to.equal(rewritten);
    writeFileSync(path.join(root, 'target', 'build.bin'), 'changed build output');
    expect(await hashTree(root)).to.equal(rewritten);
  });
});
