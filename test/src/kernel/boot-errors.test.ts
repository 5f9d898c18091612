import { pathToFileURL } from 'node:url';
import path from 'node:path';
import { expect } from 'chai';
import { pino } from 'pino';
import { BootError } from '@testkeeper/kernel';
import { Kernel } from '@testkeeper/kernel/host';
import { PluginSandbox } from './support/plugin-sandbox.js';

const logger = pino({ level: process.env.TESTKEEPER_TEST_LOG ?? 'silent' });

describe('boot: plugin errors stop the server with a coded, readable reason', function () {
  let sandbox: PluginSandbox;
  const opened: Kernel[] = [];

  before(() => {
    sandbox = new PluginSandbox();
  });
  afterEach(async () => {
    for (const k of opened.splice(0)) await k.close();
  });
  after(() => sandbox.remove());

  /** Boots a kernel with the given fixture folders; `plugins` extends the plugins config. */
  async function boot(paths: string[], plugins: Record<string, unknown> = {}): Promise<Kernel> {
    const kernel = await Kernel.boot({
      env: {},
      logger,
      overrides: { dataDir: sandbox.dataDir(), log: { level: 'silent' }, plugins: { paths, ...plugins } },
    });
    opened.push(kernel);
    return kernel;
  }

  async function bootFails(paths: string[], plugins: Record<string, unknown> = {}): Promise<BootError> {
    try {
      await boot(paths, plugins);
    } catch (err) {
      expect(err, String(err)).to.be.instanceOf(BootError);
      return err as BootError;
    }
    throw new Error('boot was expected to fail');
  }

  it('rejects a default export that is not definePlugin(...)', async () => {
    const dir = sandbox.copyFixture('bad-export');
    const e = await bootFails([dir], { enabled: ['fx-*'] });
    expect(e.code).to.equal('bad_export');
    expect(e.message).to.include('"fx-bad-export"').and.include(path.join(dir, 'index.js')).and.include('definePlugin');
  });

  it('rejects a plugin written for another host API, naming both versions', async () => {
    const e = await bootFails([sandbox.copyFixture('host-api-mismatch')], { enabled: ['fx-*'] });
    expect(e.code).to.equal('host_api_mismatch');
    expect(e.message).to.include('"fx-future"').and.include('fx-future@3.1.0').and.include('^2').and.include('1.0.0');
  });

  it('rejects a plugin whose dependency is not installed', async () => {
    const e = await bootFails([sandbox.copyFixture('missing-dependency')], { enabled: ['fx-*'] });
    expect(e.code).to.equal('missing_dependency');
    expect(e.message).to.include('"fx-needs-billing"').and.include('"billing"');
  });

  it('starts once the plugin with the missing dependency is disabled', async () => {
    const k = await boot([sandbox.copyFixture('missing-dependency')], { enabled: ['fx-*', 'projects'], disabled: ['fx-needs-billing'] });
    expect(k.pluginIds).to.deep.equal(['projects']);
    expect(k.describePlugins().find((p) => p.id === 'fx-needs-billing')).to.deep.include({ loaded: false, source: 'path' });
  });

  it('rejects two plugins that define the same tool name, naming both', async () => {
    const e = await bootFails([sandbox.copyFixture('duplicate-tool')], { enabled: ['fx-*'] });
    expect(e.code).to.equal('duplicate_tool');
    expect(e.message).to.include('"fx_ping"').and.include('"fx-dup-a"').and.include('"fx-dup-b"').and.include('prefix');
  });

  it('rejects a contribution to an extension point nobody declares, listing the known ones', async () => {
    const e = await bootFails([sandbox.copyFixture('unknown-extension-point')], { enabled: ['fx-*', 'projects'] });
    expect(e.code).to.equal('unknown_extension_point');
    expect(e.message).to.include('"fx-stray-contributor"').and.include('"fx.dashboards"').and.include('projects.statistics');
  });

  it('selects an extension by id from settings, and an unknown id lists the known ones', async () => {
    const dir = sandbox.copyFixture('extension-selection');
    const k = await boot([dir], { enabled: ['fx-*'], settings: { 'fx-reporters': { format: 'tap' } } });
    expect(k.extensions.view({ id: 'fx-reporters.formats' }).ids()).to.deep.equal(['junit', 'tap']);
    const mod = (await import(pathToFileURL(path.join(dir, 'index.js')).href)) as { chosen: { format: string } };
    expect(mod.chosen.format).to.equal('TAP version 13');

    const e = await bootFails([dir], { enabled: ['fx-*'], settings: { 'fx-reporters': { format: 'xunit' } } });
    expect(e.code).to.equal('unknown_extension');
    expect(e.message).to.include('"xunit"').and.include('fx-reporters.formats').and.include('known: junit, tap');
  });

  it('rejects a tool without annotations.readOnlyHint', async () => {
    const e = await bootFails([sandbox.copyFixture('missing-read-only-hint')], { enabled: ['fx-*'] });
    expect(e.code).to.equal('bad_tool');
    expect(e.message).to.include('"fx-no-hint"').and.include('"fx_wipe"').and.include('readOnlyHint');
  });

  it('rejects a writing tool without annotations.destructiveHint', async () => {
    const e = await bootFails([sandbox.copyFixture('missing-destructive-hint')], { enabled: ['fx-*'] });
    expect(e.code).to.equal('bad_tool');
    expect(e.message).to.include('"fx_write"').and.include('destructiveHint');
  });

  it('rejects a plugins.paths entry that is not a folder', async () => {
    const missing = path.join(sandbox.dir, 'not-there');
    const e = await bootFails([missing]);
    expect(e.code).to.equal('plugin_path_missing');
    expect(e.message).to.include(missing);
  });

  it('leaves nothing open after a failed boot (the data dir can be reused)', async () => {
    const dataDir = sandbox.dataDir();
    const overrides = (paths: string[]) => ({ dataDir, log: { level: 'silent' }, plugins: { paths, enabled: ['fx-*', 'projects'] } });
    await Kernel.boot({ env: {}, logger, overrides: overrides([path.join(sandbox.dir, 'duplicate-tool')]) }).then(
      () => expect.fail('boot should fail'),
      (err: unknown) => expect((err as BootError).code).to.equal('duplicate_tool'),
    );
    const k = await Kernel.boot({ env: {}, logger, overrides: overrides([]) });
    opened.push(k);
    expect(k.registry.isEnabled('list_projects')).to.equal(true);
  });
});
