import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { loadConfig } from '@testkeeper/kernel/host';
import { bootError } from '../support/boot-errors.js';

describe('config: layers, environment and validation', () => {
  let root: string;
  const write = (rel: string, value: unknown) => {
    const file = path.join(root, rel);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, typeof value === 'string' ? value : JSON.stringify(value));
    return file;
  };

  beforeEach(() => {
    root = mkdtempSync(path.join(os.tmpdir(), 'tk-config-'));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('has working defaults with no files at all', () => {
    const c = loadConfig({ appRoot: root, env: {} });
    expect(c.dataDir).to.equal('./data');
    expect(c.http).to.deep.include({ host: '127.0.0.1', port: 3000, auth: 'token' });
    expect(c.plugins).to.deep.include({ enabled: ['*'], disabled: [], paths: [] });
    expect(c.tools).to.deep.equal({ toolsets: ['*'], allow: [], deny: [], readOnly: false });
    expect(c.storage.url).to.equal(undefined);
  });

  it('applies default < NODE_ENV < local < --config < env < overrides, deep-merging objects', () => {
    write('config/default.json', { http: { port: 1001, host: '127.0.0.1' }, log: { level: 'warn' }, tools: { deny: ['a'] } });
    write('config/staging.json', { http: { port: 1002 } });
    write('config/production.json', { http: { port: 9999 } });
    write('config/local.json', { http: { maxSessions: 7 } });
    const file = write('elsewhere/tk.json', { http: { port: 1004 }, tools: { deny: ['b', 'c'] } });
    const env = { NODE_ENV: 'staging', TESTKEEPER_PORT: '1005' };

    expect(loadConfig({ appRoot: root, env: { NODE_ENV: 'staging' } }).http.port).to.equal(1002);
    const c = loadConfig({ appRoot: root, env, file });
    expect(c.http.port).to.equal(1005, 'environment beats the config file');
    expect(c.http.host).to.equal('127.0.0.1', 'sibling keys of an overridden key survive');
    expect(c.http.maxSessions).to.equal(7);
    expect(c.log.level).to.equal('warn');
    expect(c.tools.deny).to.deep.equal(['b', 'c'], 'arrays are replaced, not concatenated');
    expect(loadConfig({ appRoot: root, env, file, overrides: { http: { port: 1006 } } }).http.port).to.equal(1006);
    expect(loadConfig({ appRoot: root, env: { TESTKEEPER_CONFIG: file } }).http.port).to.equal(1004, 'TESTKEEPER_CONFIG names the file too');
  });

  it('maps each documented environment variable to its key', () => {
    const c = loadConfig({
      appRoot: root,
      env: {
        TESTKEEPER_DATA_DIR: '/srv/tk',
        TESTKEEPER_STORAGE_URL: 'postgres://u@db:5432/tk',
        TESTKEEPER_PORT: '8080',
        TESTKEEPER_HOST: '0.0.0.0',
        TESTKEEPER_HTTP_AUTH: 'none',
        TESTKEEPER_LOG_LEVEL: 'debug',
        TESTKEEPER_READ_ONLY: '1',
      },
    });
    expect(c.dataDir).to.equal('/srv/tk');
    expect(c.storage.url).to.equal('postgres://u@db:5432/tk');
    expect(c.http).to.deep.include({ port: 8080, host: '0.0.0.0', auth: 'none' });
    expect(c.log.level).to.equal('debug');
    expect(c.tools.readOnly).to.equal(true);
    expect(loadConfig({ appRoot: root, env: { TESTKEEPER_READ_ONLY: 'true' } }).tools.readOnly).to.equal(true);
    expect(loadConfig({ appRoot: root, env: { TESTKEEPER_READ_ONLY: '0' } }).tools.readOnly).to.equal(false);
  });

  it('rejects a read-only flag that is neither true/1 nor false/0 instead of guessing', () => {
    const e = bootError(() => loadConfig({ appRoot: root, env: { TESTKEEPER_READ_ONLY: 'yes' } }));
    expect(e.code).to.equal('config_invalid');
    expect(e.message).to.include('tools.readOnly');
  });

  it('names the offending key of an invalid value', () => {
    write('config/default.json', { http: { port: 'eighty' } });
    const e = bootError(() => loadConfig({ appRoot: root, env: {} }));
    expect(e.code).to.equal('config_invalid');
    expect(e.message).to.include('http.port');
  });

  it('names the key of a bad environment value', () => {
    const e = bootError(() => loadConfig({ appRoot: root, env: { TESTKEEPER_PORT: 'abc' } }));
    expect(e.code).to.equal('config_invalid');
    expect(e.message).to.include('http.port');
    expect(bootError(() => loadConfig({ appRoot: root, env: { TESTKEEPER_LOG_LEVEL: 'loud' } })).message).to.include('log.level');
  });

  it('rejects unknown keys (typos) and names them', () => {
    write('config/default.json', { tools: { readonly: true } });
    const e = bootError(() => loadConfig({ appRoot: root, env: {} }));
    expect(e.code).to.equal('config_invalid');
    expect(e.message).to.include('tools').and.include('readonly');
    const top = bootError(() => loadConfig({ appRoot: root, env: {}, overrides: { plugin: {} } }));
    expect(top.message).to.include('plugin');
  });

  it('names every invalid key at once', () => {
    const e = bootError(() => loadConfig({ appRoot: root, env: {}, overrides: { http: { port: -1, auth: 'basic' }, plugins: { enabled: [''] } } }));
    expect(e.message).to.include('http.port').and.include('http.auth').and.include('plugins.enabled.0');
  });

  it('reports unreadable and missing config files with their path', () => {
    const bad = write('config/default.json', '{ not json');
    const e = bootError(() => loadConfig({ appRoot: root, env: {} }));
    expect(e.code).to.equal('config_unreadable');
    expect(e.message).to.include(bad);
    write('config/default.json', '[1, 2]');
    expect(bootError(() => loadConfig({ appRoot: root, env: {} })).message).to.include('top level must be an object');
    rmSync(bad);
    const missing = path.join(root, 'nope.json');
    const m = bootError(() => loadConfig({ appRoot: root, env: {}, file: missing }));
    expect(m.code).to.equal('config_missing');
    expect(m.message).to.include(missing);
  });
});
