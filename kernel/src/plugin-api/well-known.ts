import type { EntityManager } from 'typeorm';
import { createExtensionPoint } from './extension-points.js';

/**
 * Extension points shared across packs. The handles live here, in the plugin API, so a contributor
 * never imports the owning plugin. Each names its owner; the owner declares it in `register`.
 */

/** Owner: projects. Counts a pack contributes to `get_project_summary.statistics`. */
export interface ProjectStatisticsContribution {
  /** e.g. `{ scripts: 3 }` and the newest activity timestamp (ISO) this pack knows of. */
  collect(projectId: number): Promise<{ counts: Record<string, number>; last_activity?: string | null }>;
}
export const ProjectStatistics = createExtensionPoint<ProjectStatisticsContribution>('projects.statistics');

/** Owner: projects. Every pack removes what it stores for a project, in the deleting transaction. */
export interface ProjectCleanupContribution {
  /** May return what it removed (e.g. `{ scripts: 3 }`); `delete_project` reports it per plugin. */
  deleteProjectData(em: EntityManager, projectId: number): Promise<void | Record<string, number>>;
  /** Runs after the transaction committed (files on disk). Failures are logged, not raised. */
  afterProjectDeleted?(projectId: number): Promise<void>;
}
export const ProjectCleanup = createExtensionPoint<ProjectCleanupContribution>('projects.cleanup');

/** Owner: projects. Packs add objects related to a test case (e.g. its scripts) to `get_test_case`. */
export interface TestCaseRelationsContribution {
  /** Key in the `get_test_case` result, e.g. `scripts`. */
  readonly key: string;
  related(testCaseId: number): Promise<unknown[]>;
  /**
   * The test case is being deleted (inside the deleting transaction): drop or unlink what refers
   * to it, so nothing points at a missing test case afterwards.
   */
  unlinkTestCase?(em: EntityManager, testCaseId: number): Promise<void>;
}
export const TestCaseRelations = createExtensionPoint<TestCaseRelationsContribution>('projects.test-case-relations');
