import { createHash, randomBytes } from 'node:crypto';
import { IsNull } from 'typeorm';
import type { Caller } from '../plugin-api/caller.js';
import { notFound, ToolError } from '../plugin-api/errors.js';
import type { Ownership, StorageService, UserDirectory } from '../plugin-api/services.js';
import { ApiTokenRow, UserRow } from './entities.js';

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

export class Users implements UserDirectory {
  constructor(private readonly storage: StorageService) {}

  async findByName(username: string) {
    return this.storage.repo(UserRow).findOne({ where: { username } });
  }

  async ensureUser(username: string) {
    const existing = await this.findByName(username);
    if (existing) return existing;
    return this.storage.write(async (em) => {
      const again = await em.findOne(UserRow, { where: { username } });
      if (again) return again;
      return em.save(em.create(UserRow, { username, created_at: new Date().toISOString() }));
    });
  }

  async count(): Promise<number> {
    return this.storage.repo(UserRow).count();
  }
}

export interface IssuedToken {
  id: number;
  token: string;
  prefix: string;
  username: string;
}

/** API tokens: random, shown once, stored as SHA-256, revocable. */
export class ApiTokens {
  private readonly cache = new Map<string, { caller: Caller; until: number }>();

  constructor(
    private readonly storage: StorageService,
    private readonly users: Users,
    private readonly cacheMs: number,
  ) {}

  async issue(username: string, label = ''): Promise<IssuedToken> {
    const user = await this.users.ensureUser(username);
    const token = `tk_${randomBytes(32).toString('base64url')}`;
    const prefix = token.slice(0, 10);
    const row = await this.storage.write((em) =>
      em.save(
        em.create(ApiTokenRow, {
          user_id: user.id,
          prefix,
          hash: hashToken(token),
          label,
          created_at: new Date().toISOString(),
          revoked_at: null,
        }),
      ),
    );
    return { id: row.id, token, prefix, username: user.username };
  }

  /** The caller for a presented token, or null. Verified tokens are cached briefly (hot path). */
  async verify(token: string): Promise<Caller | null> {
    const hash = hashToken(token);
    const hit = this.cache.get(hash);
    const now = Date.now();
    if (hit && hit.until > now) return hit.caller;
    const row = await this.storage.repo(ApiTokenRow).findOne({ where: { hash } });
    if (!row || row.revoked_at) {
      this.cache.delete(hash);
      return null;
    }
    const user = await this.storage.repo(UserRow).findOne({ where: { id: row.user_id } });
    if (!user) return null;
    const caller: Caller = { userId: user.id, username: user.username, via: 'token' };
    if (this.cacheMs > 0) this.cache.set(hash, { caller, until: now + this.cacheMs });
    return caller;
  }

  /** Revokes by id, by prefix, or by the full token. Returns how many were revoked. */
  async revoke(ref: { id?: number; prefix?: string; token?: string; username?: string }): Promise<number> {
    const repo = this.storage.repo(ApiTokenRow);
    let rows: ApiTokenRow[] = [];
    if (ref.token) rows = await repo.find({ where: { hash: hashToken(ref.token) } });
    else if (ref.id) rows = await repo.find({ where: { id: ref.id } });
    else if (ref.prefix) rows = await repo.find({ where: { prefix: ref.prefix } });
    else if (ref.username) {
      const user = await this.users.findByName(ref.username);
      rows = user ? await repo.find({ where: { user_id: user.id } }) : [];
    }
    const live = rows.filter((r) => !r.revoked_at);
    const at = new Date().toISOString();
    await this.storage.write(async (em) => {
      for (const r of live) await em.update(ApiTokenRow, { id: r.id }, { revoked_at: at });
    });
    for (const r of live) this.cache.delete(r.hash);
    return live.length;
  }

  async list(): Promise<Array<{ id: number; prefix: string; username: string; label: string; created_at: string; revoked_at: string | null }>> {
    const rows = await this.storage.repo(ApiTokenRow).find({ order: { id: 'ASC' } });
    const users = new Map((await this.storage.repo(UserRow).find()).map((u) => [u.id, u.username]));
    return rows.map((r) => ({ id: r.id, prefix: r.prefix, username: users.get(r.user_id) ?? '?', label: r.label, created_at: r.created_at, revoked_at: r.revoked_at }));
  }

  async countLive(): Promise<number> {
    return this.storage.repo(ApiTokenRow).count({ where: { revoked_at: IsNull() } });
  }
}

export class OwnershipRule implements Ownership {
  requireOwned<T extends { owner_id: number }>(caller: Caller, kind: string, id: unknown, row: T | null | undefined): T {
    if (!row || row.owner_id !== caller.userId) throw notFound(kind, id);
    return row;
  }
}

export { ToolError };
