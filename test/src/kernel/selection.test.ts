import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { checkHostApi, discoverPlugins, inspectPackage, isSelected, orderByDependencies } from '@testkeeper/kernel/host';
import { bootError } from '../support/boot-errors.js';

type Discovered = ReturnType<typeof discoverPlugins>[number];

const plugin = (id: string, dependsOn: string[] = [], hostApi = '^1'): Discovered => ({
  id,
  packageName: `pkg-${id}`,
  version: '1.2.3',
  dir: `/nowhere/${id}`,
  entry: `/nowhere/${id}/index.js`,
  hostApi,
  dependsOn,
  source: 'path',
});


describe('selection: enabled / disabled globs', () => {
  it('loads everything by default and honours globs', () => {
    expect(isSelected('projects', ['*'], [])).to.equal(true);
    expect(isSelected('runner-native', ['runner-*'], [])).to.equal(true);
    expect(isSelected('projects', ['runner-*'], [])).to.equal(false);
    expect(isSelected('runner-native', ['runner-*', 'projects'], [])).to.equal(true);
  });

  it('disabled wins over enabled', () => {
    expect(isSelected('runner-browser', ['*'], ['runner-*'])).to.equal(false);
    expect(isSelected('runner-browser', ['runner-browser'], ['runner-browser'])).to.equal(false);
    expect(isSelected('projects', ['*'], ['runner-*'])).to.equal(true);
  });
});

describe('selection: host API check', () => {
  it('accepts a satisfied range', () => {
    expect(() => checkHostApi([plugin('a', [], '^1'), plugin('b', [], '>=1.0.0 <2')], '1.0.0')).not.to.throw();
  });

  it('rejects a mismatch with the plugin, its package and both versions', () => {
    const e = bootError(() => checkHostApi([plugin('a'), plugin('old', [], '^2')], '1.0.0'));
    expect(e.code).to.equal('host_api_mismatch');
    expect(e.message).to.include('"old"').and.include('pkg-old@1.2.3').and.include('^2').and.include('1.0.0');
  });

  it('rejects a range that is not a range', () => {
    const e = bootError(() => checkHostApi([plugin('x', [], 'banana')], '1.0.0'));
    expect(e.code).to.equal('bad_manifest');
    expect(e.message).to.include('banana');
  });
});

describe('selection: dependency order', () => {
  it('puts every plugin after its dependencies', () => {
    const ordered = orderByDependencies([plugin('scripts', ['projects']), plugin('runner-native', ['scripts']), plugin('projects'), plugin('alpha')]);
    const ids = ordered.map((p) => p.id);
    expect(ids).to.have.members(['alpha', 'projects', 'scripts', 'runner-native']);
    expect(ids.indexOf('projects')).to.be.lessThan(ids.indexOf('scripts'));
    expect(ids.indexOf('scripts')).to.be.lessThan(ids.indexOf('runner-native'));
  });

  it('is deterministic whatever the discovery order', () => {
    const a = orderByDependencies([plugin('c', ['a']), plugin('b'), plugin('a')]).map((p) => p.id);
    const b = orderByDependencies([plugin('a'), plugin('b'), plugin('c', ['a'])]).map((p) => p.id);
    expect(a).to.deep.equal(b);
  });

  it('names a missing dependency and where to look', () => {
    const e = bootError(() => orderByDependencies([plugin('scripts', ['projects'])]));
    expect(e.code).to.equal('missing_dependency');
    expect(e.message).to.include('"scripts"').and.include('"projects"').and.include('plugins.enabled');
  });

  it('reports a cycle with its path', () => {
    const e = bootError(() => orderByDependencies([plugin('a', ['b']), plugin('b', ['c']), plugin('c', ['a'])]));
    expect(e.code).to.equal('dependency_cycle');
    expect(e.message).to.include('a -> b -> c -> a');
  });

  it('reports a plugin that depends on itself', () => {
    expect(bootError(() => orderByDependencies([plugin('a', ['a'])])).code).to.equal('dependency_cycle');
  });
});

describe('discovery: manifests on disk', () => {
  let dir: string;
  const pkg = (rel: string, manifest: Record<string, unknown>) => {
    const d = path.join(dir, rel);
    mkdirSync(d, { recursive: true });
    writeFileSync(path.join(d, 'package.json'), JSON.stringify(manifest));
    return d;
  };
  beforeEach(() => {
    dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'tk-discovery-')));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('reads the manifest and resolves the entry from exports, main or index.js', () => {
    const a = inspectPackage(pkg('a', { name: '@x/a', version: '2.0.0', exports: { '.': { import: './lib/a.js' } }, testkeeper: { plugin: 'a', hostApi: '^1', dependsOn: ['b'] } }), 'path');
    expect(a).to.deep.include({ id: 'a', packageName: '@x/a', version: '2.0.0', hostApi: '^1', dependsOn: ['b'], source: 'path' });
    expect(a!.entry).to.equal(path.join(dir, 'a', 'lib', 'a.js'));
    expect(inspectPackage(pkg('b', { main: 'main.js', testkeeper: { plugin: 'b', hostApi: '^1' } }), 'path')!.entry).to.equal(path.join(dir, 'b', 'main.js'));
    expect(inspectPackage(pkg('c', { testkeeper: { plugin: 'c', hostApi: '^1' } }), 'path')!.entry).to.equal(path.join(dir, 'c', 'index.js'));
  });

  it('ignores packages that are not plugins', () => {
    expect(inspectPackage(pkg('lib', { name: 'left-pad' }), 'path')).to.equal(null);
    expect(inspectPackage(pkg('host', { testkeeper: { host: true } }), 'path')).to.equal(null);
    expect(inspectPackage(path.join(dir, 'missing'), 'path')).to.equal(null);
  });

  it('rejects bad manifests with the file and the field', () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ testkeeper: { plugin: 'Bad_Id', hostApi: '^1' } }, 'testkeeper.plugin'],
      [{ testkeeper: { plugin: 'ok' } }, 'testkeeper.hostApi'],
      [{ testkeeper: { plugin: 'ok', hostApi: '^1', dependsOn: 'projects' } }, 'testkeeper.dependsOn'],
    ];
    cases.forEach(([manifest, field], i) => {
      const d = pkg(`bad${i}`, manifest);
      const e = bootError(() => inspectPackage(d, 'path'));
      expect(e.code).to.equal('bad_manifest');
      expect(e.message).to.include(path.join(d, 'package.json')).and.include(field);
    });
    mkdirSync(path.join(dir, 'broken'));
    writeFileSync(path.join(dir, 'broken', 'package.json'), '{ nope');
    expect(bootError(() => inspectPackage(path.join(dir, 'broken'), 'path')).code).to.equal('bad_manifest');
  });

  it('finds declared dependencies of the app and plugins in configured folders', () => {
    const app = path.join(dir, 'app');
    pkg('app', { name: 'app', dependencies: { '@x/installed': '*', 'left-pad': '*', '@x/absent': '*' } });
    const real = pkg('store/installed', { name: '@x/installed', testkeeper: { plugin: 'installed', hostApi: '^1' } });
    mkdirSync(path.join(app, 'node_modules', '@x'), { recursive: true });
    symlinkSync(real, path.join(app, 'node_modules', '@x', 'installed'), 'dir');
    pkg('app/node_modules/left-pad', { name: 'left-pad' });
    pkg('app/node_modules/@x/undeclared', { testkeeper: { plugin: 'undeclared', hostApi: '^1' } });
    pkg('extra/one', { testkeeper: { plugin: 'one', hostApi: '^1' } });
    pkg('extra/two', { testkeeper: { plugin: 'two', hostApi: '^1' } });
    mkdirSync(path.join(dir, 'extra', 'not-a-package'));
    pkg('single', { testkeeper: { plugin: 'single', hostApi: '^1' } });

    const found = discoverPlugins(app, ['../extra', path.join(dir, 'single')]);
    expect(found.map((p) => [p.id, p.source])).to.have.deep.members([
      ['installed', 'installed'],
      ['one', 'path'],
      ['two', 'path'],
      ['single', 'path'],
    ]);
    expect(found.find((p) => p.id === 'installed')!.dir).to.equal(real, 'an installed package is identified by its real path');
  });

  it('rejects a configured folder that does not exist', () => {
    pkg('app', { name: 'app' });
    const e = bootError(() => discoverPlugins(path.join(dir, 'app'), ['./no-such-dir']));
    expect(e.code).to.equal('plugin_path_missing');
    expect(e.message).to.include(path.join(dir, 'app', 'no-such-dir'));
  });

  it('rejects two packages with the same plugin id', () => {
    pkg('app', { name: 'app' });
    const one = pkg('a/p', { testkeeper: { plugin: 'same', hostApi: '^1' } });
    const two = pkg('b/p', { testkeeper: { plugin: 'same', hostApi: '^1' } });
    const e = bootError(() => discoverPlugins(path.join(dir, 'app'), [path.join(dir, 'a'), path.join(dir, 'b')]));
    expect(e.code).to.equal('duplicate_plugin');
    expect(e.message).to.include(one).and.include(two);
  });

  it('follows symlinks: a package reached through a link is the same package', () => {
    const app = path.join(dir, 'app');
    pkg('app', { name: 'app', dependencies: { acme: '*' } });
    const real = pkg('store/acme', { name: 'acme', testkeeper: { plugin: 'acme', hostApi: '^1' } });
    mkdirSync(path.join(app, 'node_modules'), { recursive: true });
    symlinkSync(real, path.join(app, 'node_modules', 'acme'), 'dir');
    mkdirSync(path.join(dir, 'linked'));
    symlinkSync(real, path.join(dir, 'linked', 'acme'), 'dir');
    symlinkSync(real, path.join(dir, 'acme-link'), 'dir');
    const found = discoverPlugins(app, [path.join(dir, 'linked'), path.join(dir, 'acme-link')]);
    expect(found).to.have.length(1);
    expect(found[0]).to.deep.include({ id: 'acme', dir: real });
  });

  it('lists the same folder twice only once', () => {
    pkg('app', { name: 'app' });
    pkg('a/p', { testkeeper: { plugin: 'p', hostApi: '^1' } });
    expect(discoverPlugins(path.join(dir, 'app'), [path.join(dir, 'a'), path.join(dir, 'a', 'p')])).to.have.length(1);
  });
});
