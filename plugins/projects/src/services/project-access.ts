import { inject, injectable, notFound, Tokens, type Caller, type ProjectAccess, type ProjectRef, type StorageService } from '@testkeeper/kernel';
import { ProjectRow } from '../entities/project.js';

/** The shared ownership check for project ids, exported to every pack as Tokens.ProjectAccess. */
@injectable()
export class ProjectAccessService implements ProjectAccess {
  constructor(@inject(Tokens.Storage) private readonly storage: StorageService) {}

  async requireProject(caller: Caller, projectId: number): Promise<ProjectRef> {
    const row = await this.storage.repo(ProjectRow).findOne({ where: { id: projectId }, });
    // A missing project and another user's project give the same answer.
    if (!row || row.owner_id !== caller.userId) throw notFound('project', projectId);
    return { id: row.id, owner_id: row.owner_id, name: row.name };
  }
}
