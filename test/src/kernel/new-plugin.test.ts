import { execFileSync } from 'node:child_process';
import { readFileSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { startTestHost, type TestHost } from '@testkeeper/kernel/testing';
import { PluginSandbox, repoRoot } from './support/plugin-sandbox.js';

describe('scripts/new-plugin.mjs scaffold', function () {
  this.timeout(120_000);
  let sandbox: PluginSandbox;
  let host: TestHost | undefined;

  before(() => {
    sandbox = new PluginSandbox('tk-scaffold-');
    // A third party's own install would have @types/node; lend it ours.
    symlinkSync(path.join(repoRoot, 'node_modules', '@types'), path.join(sandbox.dir, 'node_modules', '@types'), 'dir');
  });
  after(async () => {
    await host?.close();
    sandbox.remove();
  });

  it('writes a pack that compiles, loads and answers its tool', async () => {
    const out = execFileSync(process.execPath, [path.join(repoRoot, 'scripts', 'new-plugin.mjs'), 'fx-widgets', '--dir', sandbox.dir], { encoding: 'utf8' });
    expect(out).to.include('Next steps');
    const dir = path.join(sandbox.dir, 'fx-widgets');
    const manifest = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8'));
    expect(manifest.testkeeper).to.deep.equal({ plugin: 'fx-widgets', hostApi: '^1', dependsOn: [] });

    execFileSync(process.execPath, [path.join(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', path.join(dir, 'tsconfig.json')], { encoding: 'utf8' });

    host = await startTestHost({ config: { plugins: { paths: [dir], enabled: ['fx-*'] } } });
    expect(host.kernel.registry.listing().map((t) => t.name)).to.deep.equal(['fx_widgets_ping']);
    expect(await host.ok('fx_widgets_ping')).to.deep.equal({ pong: true, caller: 'alice' });
  });

  it('refuses an invalid id', () => {
    let status: number | undefined;
    try {
      execFileSync(process.execPath, [path.join(repoRoot, 'scripts', 'new-plugin.mjs'), 'Bad_Id', '--dir', sandbox.dir], { stdio: 'pipe' });
    } catch (err) {
      status = (err as { status: number }).status;
    }
    expect(status).to.equal(2);
  });
});
