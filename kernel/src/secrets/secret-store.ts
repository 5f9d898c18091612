import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import type { SecretStore } from '../plugin-api/secrets.js';
import type { StorageService } from '../plugin-api/services.js';
import { SecretRow } from './entities.js';

const VERSION = 'v1';
export const MASK = '[redacted]';
/** Shorter values would scrub ordinary words. */
const MIN_SCRUB_LENGTH = 6;

/**
 * AES-256-GCM secrets in `kernel_secrets`. Stored values are bound to their (owner, key) slot with
 * additional authenticated data, so a sealed value copied to another row does not decrypt.
 */
export class AesSecretStore implements SecretStore {
  private readonly known = new Set<string>();

  constructor(
    private readonly key: Buffer,
    private readonly storage: StorageService,
  ) {}

  async put(ownerId: number, key: string, value: string): Promise<void> {
    const sealed = this.seal(value, slot(ownerId, key));
    const now = new Date().toISOString();
    await this.storage.write(async (em) => {
      const row = await em.findOne(SecretRow, { where: { owner_id: ownerId, key } });
      if (row) await em.update(SecretRow, { id: row.id }, { sealed, updated_at: now });
      else await em.insert(SecretRow, { owner_id: ownerId, key, sealed, created_at: now, updated_at: now });
    });
    this.remember(value);
  }

  async get(ownerId: number, key: string): Promise<string | null> {
    const row = await this.storage.repo(SecretRow).findOne({ where: { owner_id: ownerId, key } });
    if (!row) return null;
    const value = this.open(row.sealed, slot(ownerId, key));
    this.remember(value);
    return value;
  }

  async has(ownerId: number, key: string): Promise<boolean> {
    return (await this.storage.repo(SecretRow).count({ where: { owner_id: ownerId, key } })) > 0;
  }

  async delete(ownerId: number, key: string): Promise<void> {
    await this.storage.write((em) => em.delete(SecretRow, { owner_id: ownerId, key }));
  }

  async purge(key: string, em?: EntityManager): Promise<void> {
    if (em) await em.delete(SecretRow, { key });
    else await this.storage.write((tx) => tx.delete(SecretRow, { key }));
  }

  scrub(text: string): string {
    let out = text;
    for (const v of this.known) {
      if (out.includes(v)) out = out.split(v).join(MASK);
      // The same value inside JSON text (log lines, serialized results) is escaped.
      const escaped = JSON.stringify(v).slice(1, -1);
      if (escaped !== v && out.includes(escaped)) out = out.split(escaped).join(MASK);
    }
    return out;
  }

  get scrubbing(): boolean {
    return this.known.size > 0;
  }

  /** Adds a value that is not stored here (an env-provided key) to the scrub list. */
  remember(value: string): void {
    if (value.length >= MIN_SCRUB_LENGTH) this.known.add(value);
  }

  encrypt(plain: string): string {
    return this.seal(plain, '');
  }

  decrypt(sealed: string): string {
    return this.open(sealed, '');
  }

  private seal(plain: string, aad: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    if (aad) cipher.setAAD(Buffer.from(aad));
    const ct = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return [VERSION, iv.toString('base64'), cipher.getAuthTag().toString('base64'), ct.toString('base64')].join(':');
  }

  private open(sealed: string, aad: string): string {
    const [version, iv, tag, ct] = sealed.split(':');
    if (version !== VERSION || !iv || !tag || ct === undefined) throw new Error('sealed secret has an unknown format');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64'));
    if (aad) decipher.setAAD(Buffer.from(aad));
    decipher.setAuthTag(Buffer.from(tag, 'base64'));
    // A wrong key or a tampered value throws here: GCM authenticates before anything is returned.
    return Buffer.concat([decipher.update(Buffer.from(ct, 'base64')), decipher.final()]).toString('utf8');
  }
}

const slot = (ownerId: number, key: string) => `${ownerId}\u0000${key}`;
