import { inject, injectable, Tokens, type Caller, type Ownership, type ProjectAccess, type ProjectRef, type StorageService } from '@testkeeper/kernel';
import { findProjectRow } from './project-store.js';

/** The shared ownership check for project ids, exported to every pack as Tokens.ProjectAccess. */
@injectable()
export class ProjectAccessService implements ProjectAccess {
  constructor(
    @inject(Tokens.Storage) private readonly storage: StorageService,
    @inject(Tokens.Ownership) private readonly ownership: Ownership,
  ) {}

  async requireProject(caller: Caller, projectId: number): Promise<ProjectRef> {
    const row = await findProjectRow(this.storage, projectId);
    // A missing project and another user's project give the same answer.
    const owned = this.ownership.requireOwned(caller, 'project', projectId, row);
    return { id: owned.id, owner_id: owned.owner_id, name: owned.name };
  }
}
