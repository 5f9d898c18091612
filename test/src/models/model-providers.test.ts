import { expect } from 'chai';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { findAppRoot } from '@testkeeper/kernel/host';
import { startTestHost, type TestHost } from '@testkeeper/kernel/testing';

/** A third-party model provider contributed through the kernel's `kernel.models` extension point. */
const PROVIDER_PLUGIN = `
import { definePlugin, ModelProviders } from '@testkeeper/kernel';
export default definePlugin({
  id: 'house-model',
  register(reg) {
    reg.contribute(ModelProviders, 'house_model', () => ({
      available: () => true,
      async complete(req) {
        return { model: 'house-1', text: JSON.stringify({ steps: [{ step: 'House step for: ' + req.prompt.split('\\n')[1], expected: 'Done' }] }) };
      },
    }));
  },
});
`;

describe('models: providers contributed through kernel.models', function () {
  let root: string;
  let host: TestHost;
  before(async () => {
    // Laid out like a third party's install: the package, and the kernel it peers on.
    root = mkdtempSync(path.join(os.tmpdir(), 'tk-models-'));
    mkdirSync(path.join(root, 'node_modules', '@testkeeper'), { recursive: true });
    symlinkSync(path.join(findAppRoot({}), 'kernel'), path.join(root, 'node_modules', '@testkeeper', 'kernel'), 'dir');
    const dir = path.join(root, 'house-model');
    mkdirSync(dir);
    const manifest = { name: 'house-model', version: '1.0.0', type: 'module', main: 'index.js', testkeeper: { plugin: 'house-model', hostApi: '^1', dependsOn: [] } };
    writeFileSync(path.join(dir, 'package.json'), JSON.stringify(manifest));
    writeFileSync(path.join(dir, 'index.js'), PROVIDER_PLUGIN);
    host = await startTestHost({ config: { plugins: { paths: [dir] }, models: { providers: ['house_model'] } } });
  });
  after(async () => {
    await host?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('answers model tasks with the contributed provider, selected by id from config', async () => {
    const p = await host.ok('create_project', { name: 'House', force_create: true });
    const tc = await host.ok('create_test_case', { project_id: p.project_id, title: 'Archive a board' });
    expect(tc).to.include({ engine: 'house_model', model: 'house-1' });
    expect(tc.steps).to.deep.equal([{ step: 'House step for: Title: Archive a board', expected: 'Done' }]);
  });
});
