import { inject, injectable, newVersion, notFound, Tokens, type Caller, type StorageService } from '@testkeeper/kernel';
import type { EntityManager } from 'typeorm';
import { ScriptRow } from '../entities/script.js';

/** The public shape of a script (SPEC §2 "Automation script"). */
export interface ScriptView {
  id: number;
  name: string;
  project_id: number;
  test_case_id: number | null;
  framework: string;
  code: string;
  version: string;
  created_at: string;
}

export const toScriptView = (r: ScriptRow): ScriptView => ({
  id: r.id,
  name: r.name,
  project_id: r.project_id,
  test_case_id: r.test_case_id,
  framework: r.framework,
  code: r.code,
  version: r.version,
  created_at: r.created_at,
});

export interface NewScript {
  owner_id: number;
  project_id: number;
  test_case_id: number | null;
  name: string;
  framework: string;
  code: string;
}

/**
 * Script rows: the one place that reads and writes `scripts_scripts`. Other parts of this pack
 * (executions, runners) use `requireScript` for the ownership check and never write rows directly.
 */
@injectable()
export class ScriptStore {
  constructor(@inject(Tokens.Storage) private readonly storage: StorageService) {}

  /** The caller's script, or `not_found` (missing and foreign alike). */
  async requireScript(caller: Caller, scriptId: number): Promise<ScriptRow> {
    const row = await this.storage.repo(ScriptRow).findOne({ where: { id: scriptId } });
    if (!row || row.owner_id !== caller.userId) throw notFound('script', scriptId);
    return row;
  }

  async list(projectId: number, testCaseId: number | undefined, limit: number, offset: number): Promise<[ScriptRow[], number]> {
    return this.storage.repo(ScriptRow).findAndCount({
      where: testCaseId === undefined ? { project_id: projectId } : { project_id: projectId, test_case_id: testCaseId },
      order: { id: 'ASC' },
      take: limit,
      skip: offset,
    });
  }

  async create(input: NewScript, em?: EntityManager): Promise<ScriptRow> {
    const now = new Date();
    const insert = (m: EntityManager) =>
      m.getRepository(ScriptRow).save(
        m.getRepository(ScriptRow).create({ ...input, version: newVersion(now), created_at: now.toISOString(), updated_at: now.toISOString() }),
      );
    return em ? insert(em) : this.storage.write(insert);
  }

  /** Version-guarded update: false when `expectedVersion` is no longer current. */
  async updateGuarded(id: number, expectedVersion: string, values: Partial<Pick<ScriptRow, 'name' | 'code'>>): Promise<ScriptRow | null> {
    return this.storage.write(async (em) => {
      const now = new Date();
      const ok = await this.storage.guardedUpdate(em, ScriptRow, id, expectedVersion, { ...values, updated_at: now.toISOString() }, newVersion(now));
      return ok ? em.getRepository(ScriptRow).findOneOrFail({ where: { id } }) : null;
    });
  }

  async delete(id: number): Promise<void> {
    await this.storage.write((em) => em.getRepository(ScriptRow).delete({ id }));
  }

  async countForProject(projectId: number): Promise<{ count: number; last: string | null }> {
    // get_project_summary's hot path: plain SQL (see StorageService.query).
    const [row] = await this.storage.query<{ count: string | number; last: string | null }>(
      'SELECT COUNT(*) AS count, MAX(updated_at) AS last FROM scripts_scripts WHERE project_id = ?',
      [projectId],
    );
    return { count: Number(row?.count ?? 0), last: row?.last ?? null };
  }

  async forTestCase(testCaseId: number): Promise<ScriptRow[]> {
    return this.storage.repo(ScriptRow).find({ where: { test_case_id: testCaseId }, order: { id: 'ASC' } });
  }
}
