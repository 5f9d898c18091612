import { randomBytes } from 'node:crypto';
import { inject, injectable, newVersion, Tokens, type StorageService } from '@testkeeper/kernel';
import { PendingTestRow } from '../entities/pending-test.js';
import { ScriptRow } from '../entities/script.js';

export interface PendingTestView {
  pending_test_id: string;
  project_id: number;
  test_case_id: number | null;
  name: string;
  framework: string;
  engine: string;
  untranslated: string[];
  status: string;
  script_id: number | null;
  created_at: string;
  code?: string;
}

export const toPendingView = (r: PendingTestRow, withCode = false): PendingTestView => ({
  pending_test_id: r.id,
  project_id: r.project_id,
  test_case_id: r.test_case_id,
  name: r.name,
  framework: r.framework,
  engine: r.engine,
  untranslated: JSON.parse(r.untranslated) as string[],
  status: r.status,
  script_id: r.script_id,
  created_at: r.created_at,
  ...(withCode ? { code: r.code } : {}),
});

export type NewPendingTest = Pick<PendingTestRow, 'owner_id' | 'project_id' | 'test_case_id' | 'name' | 'framework' | 'code' | 'engine'> & {
  untranslated: string[];
};

/** Proposed tests (`scripts_pending_tests`) and their one-way move to scripts. */
@injectable()
export class PendingStore {
  constructor(@inject(Tokens.Storage) private readonly storage: StorageService) {}

  async create(input: NewPendingTest): Promise<PendingTestRow> {
    return this.storage.write(async (em) => {
      const repo = em.getRepository(PendingTestRow);
      return repo.save(
        repo.create({
          ...input,
          id: `pt_${randomBytes(9).toString('hex')}`,
          untranslated: JSON.stringify(input.untranslated),
          status: 'pending',
          script_id: null,
          created_at: new Date().toISOString(),
          accepted_at: null,
        }),
      );
    });
  }

  async list(projectId: number, status: 'pending' | 'accepted' | undefined, limit: number, offset: number): Promise<[PendingTestRow[], number]> {
    return this.storage.repo(PendingTestRow).findAndCount({
      where: status ? { project_id: projectId, status } : { project_id: projectId },
      order: { created_at: 'ASC', id: 'ASC' },
      take: limit,
      skip: offset,
    });
  }

  async find(projectId: number, id: string): Promise<PendingTestRow | null> {
    return this.storage.repo(PendingTestRow).findOne({ where: { id, project_id: projectId } });
  }

  async pendingOf(projectId: number): Promise<PendingTestRow[]> {
    return this.storage.repo(PendingTestRow).find({ where: { project_id: projectId, status: 'pending' }, order: { created_at: 'ASC', id: 'ASC' } });
  }

  /**
   * Turns one proposal into a script, once. The status flip is a guarded UPDATE in the same
   * transaction as the insert, so two concurrent accepts create one script between them.
   * Returns null when it was accepted already.
   */
  async accept(pending: PendingTestRow): Promise<ScriptRow | null> {
    return this.storage.write(async (em) => {
      const now = new Date();
      const flipped = await em
        .createQueryBuilder()
        .update(PendingTestRow)
        .set({ status: 'accepted', accepted_at: now.toISOString() })
        .where('id = :id AND status = :pending', { id: pending.id, pending: 'pending' })
        .execute();
      if (flipped.affected !== 1) return null;
      const scripts = em.getRepository(ScriptRow);
      const script = await scripts.save(
        scripts.create({
          owner_id: pending.owner_id,
          project_id: pending.project_id,
          test_case_id: pending.test_case_id,
          name: pending.name,
          framework: pending.framework,
          code: pending.code,
          version: newVersion(now),
          created_at: now.toISOString(),
          updated_at: now.toISOString(),
        }),
      );
      await em.getRepository(PendingTestRow).update({ id: pending.id }, { script_id: script.id });
      return script;
    });
  }
}
