import { createHash, randomBytes } from 'node:crypto';
import { IsNull } from 'typeorm';
import type { Caller } from '../plugin-api/caller.js';
import { notFound, ToolError } from '../plugin-api/errors.js';
import type { Ownership, StorageService, UserDirectory } from '../plugin-api/services.js';
import { ApiTokenRow, UserRow } from './entities.js';

const MAX_CACHED_TOKENS = 10_000;

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
    const now = Date.now();
    const hit = this.cache.get(hash);
    if (hit && hit.until > now) return hit.caller;
    // One query: the token row joined to its user; a revoked token or a deleted user is no caller.
    const row = await this.storage
      .repo(ApiTokenRow)
      .createQueryBuilder('t')
      .innerJoin(UserRow, 'u', 'u.id = t.user_id')
      .select('u.id', 'user_id')
      .addSelect('u.username', 'username')
      .where('t.hash = :hash AND t.revoked_at IS NULL', { hash })
      .getRawOne<{ user_id: number | string; username: string }>();
    if (!row) {
      this.cache.delete(hash);
      return null;
    }
    const caller: Caller = { userId: Number(row.user_id), username: row.username, via: 'token' };
    if (this.cacheMs > 0) {
      if (this.cache.size >= MAX_CACHED_TOKENS) this.cache.clear(); // bounded: live tokens only, rarely many
      this.cache.set(hash, { caller, until: now + this.cacheMs });
    }
    return caller;
  }

  /** Revokes by id, by prefix, by the full token or every token of a user. Returns how many were revoked. */
  async revoke(ref: { id?: number; prefix?: string; token?: string; username?: string }): Promise<number> {
    const at = new Date().toISOString();
    const revoked = await this.storage.write(async (em) => {
      let where: Record<string, unknown>;
      if (ref.token) where = { hash: hashToken(ref.token) };
      else if (ref.id !== undefined) where = { id: ref.id };
      else if (ref.prefix) where = { prefix: ref.prefix };
      else if (ref.username) {
        const user = await em.findOne(UserRow, { where: { username: ref.username } });
        if (!user) return [];
        where = { user_id: user.id };
      } else return [];
      const live = await em.find(ApiTokenRow, { where: { ...where, revoked_at: IsNull() } });
      for (const r of live) await em.update(ApiTokenRow, { id: r.id }, { revoked_at: at });
      return live;
    });
    for (const r of revoked) this.cache.delete(r.hash);
    return revoked.length;
  }

  async list(): Promise<Array<{ id: number; prefix: string; username: string; label: string; created_at: string; revoked_at: string | null }>> {
    const rows = await this.storage.repo(ApiTokenRow).find({ order: { id: 'ASC' } });
    const users = new Map((await this.storage.repo(UserRow).find()).map((u) => [u.id, u.username]));
    return rows.map((r) => ({ id: r.id, prefix: r.prefix, username: users.get(r.user_id) ?? '?', label: r.label, created_at: r.created_at, revoked_at: r.revoked_at }));
  }

  /** Every token ever issued, revoked ones included (an empty table means a first start). */
  async countAll(): Promise<number> {
    return this.storage.repo(ApiTokenRow).count();
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
