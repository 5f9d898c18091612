import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { BootError } from '../plugin-api/errors.js';
import type { Logger } from '../plugin-api/services.js';

export const KEY_FILE = 'secret.key';

/** Decodes a base64 key and insists on exactly 32 bytes (AES-256). */
export function decodeKey(b64: string, from: string): Buffer {
  const key = Buffer.from(b64.trim(), 'base64');
  if (key.length !== 32) {
    throw new BootError('secret_key_invalid', `${from} must be 32 bytes in base64 (got ${key.length} bytes); generate one with: openssl rand -base64 32`);
  }
  return key;
}

/**
 * The encryption key: config `secrets.key` (env TESTKEEPER_SECRET_KEY), else `<dataDir>/secret.key`
 * (created with 0600 permissions on first start). A key file readable by others is tightened.
 */
export function loadSecretKey(opts: { configured?: string; dataDir: string; logger?: Logger }): Buffer {
  if (opts.configured) return decodeKey(opts.configured, 'secrets.key (or TESTKEEPER_SECRET_KEY)');
  const file = path.join(opts.dataDir, KEY_FILE);
  if (!existsSync(file)) {
    mkdirSync(opts.dataDir, { recursive: true });
    // `wx`: never overwrite a key another process just created.
    try {
      writeFileSync(file, randomBytes(32).toString('base64') + '\n', { mode: 0o600, flag: 'wx' });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
  const mode = statSync(file).mode & 0o777;
  if (mode & 0o077) {
    chmodSync(file, 0o600);
    opts.logger?.warn({ file }, 'secret key file was readable by others; permissions set to 0600');
  }
  return decodeKey(readFileSync(file, 'utf8'), file);
}
