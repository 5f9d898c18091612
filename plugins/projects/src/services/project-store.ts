import { conflict, inject, injectable, newVersion, notFound, Tokens, type Caller, type Clock, type Ownership, type StorageService } from '@testkeeper/kernel';
import type { EntityManager } from 'typeorm';
import { ProjectRow } from '../entities/project.js';
import { parseSettings, withGates, type Gates } from './gates.js';
import { normalizeName } from './similarity.js';

export interface ProjectChanges {
  name?: string;
  description?: string;
  main_url?: string | null;
}

/**
 * One project by id, whoever owns it. Every project tool (and every other pack's ownership check)
 * starts here, and get_project_summary is latency-benchmarked: a plain SELECT costs a tenth of a
 * TypeORM find(). Column names equal the entity's property names.
 */
export async function findProjectRow(storage: StorageService, projectId: number, em: EntityManager = storage.manager): Promise<ProjectRow | null> {
  const rows = await storage.query<ProjectRow>('SELECT * FROM projects_projects WHERE id = ?', [projectId], em);
  return rows.length ? Object.assign(new ProjectRow(), rows[0]) : null;
}

/** Concurrent gate updates retry this often on a version mismatch before giving up. */
const GATE_ATTEMPTS = 10;

/** Reads and updates of projects, always through the ownership rule. */
@injectable()
export class ProjectStore {
  constructor(
    @inject(Tokens.Storage) private readonly storage: StorageService,
    @inject(Tokens.Ownership) private readonly ownership: Ownership,
    @inject(Tokens.Clock) private readonly clock: Clock,
  ) {}

  /** The caller's project; a missing and a foreign project give the same `not_found`. */
  async requireOwned(caller: Caller, projectId: number, em: EntityManager = this.storage.manager): Promise<ProjectRow> {
    return this.ownership.requireOwned(caller, 'project', projectId, await findProjectRow(this.storage, projectId, em));
  }

  /**
   * Applies the given fields. The key and the slug stay as they were when the name changes, so
   * links and references made with them keep working.
   */
  async update(caller: Caller, projectId: number, changes: ProjectChanges): Promise<ProjectRow> {
    return this.storage.write(async (em) => {
      const row = await this.requireOwned(caller, projectId, em);
      const now = this.clock.now();
      const values: Partial<ProjectRow> = { version: newVersion(now), updated_at: now.toISOString() };
      if (changes.name !== undefined) Object.assign(values, { name: changes.name, name_normalized: normalizeName(changes.name) });
      if (changes.description !== undefined) values.description = changes.description;
      if (changes.main_url !== undefined) values.main_url = changes.main_url;
      const result = await em.update(ProjectRow, { id: row.id }, values);
      // Deleted by a concurrent transaction after our read (PostgreSQL): report it as gone.
      if (result.affected === 0) throw notFound('project', projectId);
      return Object.assign(row, values);
    });
  }

  /**
   * Sets pipeline gates inside `test_frameworks`, keeping every other setting. The write is
   * version-guarded and retried, so two concurrent updates both land instead of one losing.
   */
  async setGates(caller: Caller, projectId: number, gates: Partial<Gates>): Promise<ProjectRow> {
    for (let attempt = 1; attempt <= GATE_ATTEMPTS; attempt++) {
      const saved = await this.storage.write(async (em) => {
        const row = await this.requireOwned(caller, projectId, em);
        const now = this.clock.now();
        const values = { test_frameworks: JSON.stringify(withGates(parseSettings(row.test_frameworks), gates)), updated_at: now.toISOString() };
        const version = newVersion(now);
        const ok = await this.storage.guardedUpdate(em, ProjectRow, row.id, row.version, values, version);
        return ok ? Object.assign(row, values, { version }) : null;
      });
      if (saved) return saved;
    }
    throw conflict(`project ${projectId} kept changing while its gates were saved`, 'Retry update_project_pipeline_gates.');
  }
}
