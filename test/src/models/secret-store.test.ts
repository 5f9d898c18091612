import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync, chmodSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { Tokens } from '@testkeeper/kernel';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { Kernel, loadConfig, loadSecretKey } from '@testkeeper/kernel/host';
import { onEachBackend, startTestHost, type TestHost } from '@testkeeper/kernel/testing';
import { sql } from '../support/sql.js';

describe('secrets: key loading', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'tk-key-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('generates a 32-byte key file with 0600 permissions and reuses it', () => {
    const k1 = loadSecretKey({ dataDir: dir });
    const file = path.join(dir, 'secret.key');
    expect(k1.length).to.equal(32);
    expect(statSync(file).mode & 0o777).to.equal(0o600);
    expect(loadSecretKey({ dataDir: dir }).equals(k1)).to.equal(true);
  });

  it('tightens a key file that others can read', () => {
    const file = path.join(dir, 'secret.key');
    writeFileSync(file, Buffer.alloc(32, 7).toString('base64'));
    chmodSync(file, 0o644);
    loadSecretKey({ dataDir: dir });
    expect(statSync(file).mode & 0o777).to.equal(0o600);
  });

  it('takes a configured key and rejects one of the wrong length', () => {
    const good = Buffer.alloc(32, 1).toString('base64');
    expect(loadSecretKey({ configured: good, dataDir: dir }).equals(Buffer.alloc(32, 1))).to.equal(true);
    expect(() => loadSecretKey({ configured: Buffer.alloc(12).toString('base64'), dataDir: dir })).to.throw(/32 bytes.*got 12 bytes/);
  });

  it('reads TESTKEEPER_SECRET_KEY and the model variables through the config loader', () => {
    const cfg = loadConfig({
      appRoot: dir,
      env: { TESTKEEPER_SECRET_KEY: 'a2V5', TESTKEEPER_MODEL_BASE_URL: 'http://127.0.0.1:11434/v1', TESTKEEPER_MODEL: 'llama3.1', TESTKEEPER_MODEL_API_KEY: 'sk-x' },
    });
    expect(cfg.secrets.key).to.equal('a2V5');
    expect(cfg.models).to.deep.include({ baseUrl: 'http://127.0.0.1:11434/v1', model: 'llama3.1', apiKey: 'sk-x', timeoutMs: 30000 });
    expect(loadConfig({ appRoot: dir, env: {} }).models).to.deep.equal({ providers: ['mcp_sampling', 'openai_compatible'], timeoutMs: 30000 });
  });
});

describe('secrets: log scrubbing', () => {
  it('masks values the store knows in every log line, including child loggers', async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'tk-logscrub-'));
    const logger = pino({ level: 'info' }, sink);
    const kernel = await Kernel.boot({ env: {}, logger, overrides: { dataDir, log: { level: 'info' } } });
    try {
      const secrets = kernel.container.resolve(Tokens.Secrets);
      await secrets.put(1, 'tracker:token', 'lin_api_Q2w3e4r5t6');
      logger.child({ plugin: 'x' }).error({ header: 'Bearer lin_api_Q2w3e4r5t6' }, 'upstream said lin_api_Q2w3e4r5t6 is invalid');
      secrets.remember('pa"ss\\word-1');
      logger.warn({ value: 'pa"ss\\word-1' }, 'quoted');
      const text = lines.join('');
      expect(text).to.include('upstream said [redacted] is invalid').and.include('Bearer [redacted]');
      expect(text).not.to.include('lin_api_Q2w3e4r5t6');
      expect(text).not.to.include('word-1');
    } finally {
      await kernel.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

onEachBackend(describe, before, 'secrets: AES-256-GCM store (Tokens.Secrets)', (backend) => {
  let host: TestHost;
  before(async () => {
    host = await startTestHost({ storage: backend });
  });
  after(async () => host?.close());

  const store = () => host.kernel.container.resolve(Tokens.Secrets);
  const sealedOf = async (owner: number, key: string) => {
    const rows = await sql(host, 'SELECT sealed FROM kernel_secrets WHERE owner_id = ? AND key = ?', [owner, key]);
    return rows[0]?.sealed as string | undefined;
  };

  it('stores, replaces, reads and deletes per owner and key', async () => {
    const s = store();
    await s.put(1, 'a:b', 'first-value');
    await s.put(1, 'a:b', 'second-value');
    await s.put(2, 'a:b', 'other-owner');
    expect(await s.get(1, 'a:b')).to.equal('second-value');
    expect(await s.get(2, 'a:b')).to.equal('other-owner');
    expect(await s.get(3, 'a:b')).to.equal(null);
    expect(await s.has(1, 'a:b')).to.equal(true);
    await s.delete(1, 'a:b');
    expect(await s.has(1, 'a:b')).to.equal(false);
    expect(await s.get(2, 'a:b')).to.equal('other-owner');
  });

  it('keeps only ciphertext at rest, with a fresh IV each time', async () => {
    const s = store();
    await s.put(5, 'k', 'plain-text-secret');
    const one = await sealedOf(5, 'k');
    await s.put(5, 'k', 'plain-text-secret');
    const two = await sealedOf(5, 'k');
    expect(one).to.match(/^v1:/).and.not.include('plain-text-secret');
    expect(one).not.to.equal(two);
  });

  it('refuses a tampered value and a value moved to another slot', async () => {
    const s = store();
    await s.put(6, 'slot-a', 'bound-value');
    const sealed = (await sealedOf(6, 'slot-a'))!;
    await sql(host, 'UPDATE kernel_secrets SET key = ? WHERE owner_id = ? AND key = ?', ['slot-b', 6, 'slot-a']);
    let err: unknown;
    await s.get(6, 'slot-b').catch((e) => (err = e));
    expect(err, 'moved value must not decrypt').to.be.instanceOf(Error);
    const parts = sealed.split(':');
    const ct = Buffer.from(parts[3]!, 'base64');
    ct[0] = ct[0]! ^ 1;
    expect(() => s.decrypt([parts[0], parts[1], parts[2], ct.toString('base64')].join(':'))).to.throw();
    expect(s.decrypt(s.encrypt('round trip'))).to.equal('round trip');
  });

  it('scrubs known values from text', async () => {
    const s = store();
    await s.put(7, 'token', 'ghp_abcdef123456');
    expect(s.scrub('auth failed for ghp_abcdef123456 (ghp_abcdef123456)')).to.equal('auth failed for [redacted] ([redacted])');
    s.remember('tiny');
    expect(s.scrub('a tiny word')).to.equal('a tiny word');
  });

  it('purges a key for every owner', async () => {
    const s = store();
    await s.put(8, 'tcm:project:99', 'x-value-1');
    await s.put(9, 'tcm:project:99', 'x-value-2');
    await s.purge('tcm:project:99');
    expect(await s.has(8, 'tcm:project:99')).to.equal(false);
    expect(await s.has(9, 'tcm:project:99')).to.equal(false);
  });

  it('wrote the key file into the data directory', () => {
    const file = path.join(host.dataDir, 'secret.key');
    expect(statSync(file).mode & 0o777).to.equal(0o600);
    expect(Buffer.from(readFileSync(file, 'utf8').trim(), 'base64').length).to.equal(32);
  });
});
