import { inject, injectable, Tokens, ToolError, type Caller, type Logger, type StorageService } from '@testkeeper/kernel';
import { ProjectRow } from '../entities/project.js';
import { ProjectExtensions, type ProjectContributions } from './project-extensions.js';
import { ProjectStore } from './project-store.js';

export interface DeletedProject {
  project_id: number;
  name: string;
  key: string;
  /** What each plugin's cleanup reported it removed, by plugin id. */
  removed: Record<string, Record<string, number>>;
}

/**
 * delete_project: every pack's cleanup and the project row go in ONE transaction, so a failing
 * cleanup leaves everything as it was. File cleanup (afterProjectDeleted) runs after the commit.
 */
@injectable()
export class ProjectDeletion {
  constructor(
    @inject(Tokens.Storage) private readonly storage: StorageService,
    @inject(ProjectStore) private readonly store: ProjectStore,
    @inject(ProjectExtensions) private readonly contributions: ProjectContributions,
    @inject(Tokens.Logger) private readonly logger: Logger,
  ) {}

  async delete(caller: Caller, projectId: number): Promise<DeletedProject> {
    // Reverse load order: packs that depend on others clean up before the packs they depend on.
    const cleanups = [...this.contributions.cleanups()].reverse();
    const deleted = await this.storage.write(async (em) => {
      const row = await this.store.requireOwned(caller, projectId, em);
      const removed: Record<string, Record<string, number>> = {};
      for (const c of cleanups) {
        let counts: void | Record<string, number>;
        try {
          counts = await c.value.deleteProjectData(em, row.id);
        } catch (err) {
          // A contribution may refuse with a ToolError (e.g. a run in progress); anything else is internal.
          if (err instanceof ToolError) throw err;
          throw new Error(`project cleanup "${c.id}" of plugin "${c.pluginId}" failed`, { cause: err });
        }
        if (counts) removed[c.pluginId] = addCounts(removed[c.pluginId] ?? {}, counts);
      }
      await em.delete(ProjectRow, { id: row.id });
      return { project_id: row.id, name: row.name, key: row.key, removed };
    });
    for (const c of cleanups) {
      if (!c.value.afterProjectDeleted) continue;
      try {
        await c.value.afterProjectDeleted(projectId);
      } catch (err) {
        this.logger.error({ err, projectId, contribution: c.id, plugin: c.pluginId }, 'post-delete cleanup failed');
      }
    }
    return deleted;
  }
}

function addCounts(into: Record<string, number>, counts: Record<string, number>): Record<string, number> {
  for (const [k, v] of Object.entries(counts)) into[k] = (into[k] ?? 0) + v;
  return into;
}
