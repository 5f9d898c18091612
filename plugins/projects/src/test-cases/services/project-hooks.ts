import { Tokens, type DependencyContainer, type ProjectCleanupContribution, type ProjectStatisticsContribution } from '@testkeeper/kernel';
import { MemoryReuseRow, MemoryRow } from '../entities/memory.js';
import { TestCaseRow } from '../entities/test-case.js';

/** The secrets key that holds a project's test-case-manager credentials. */
export const tcmSecretKey = (projectId: number) => `tcm:project:${projectId}`;

/** `test_cases` count and newest change for get_project_summary. */
export function testCaseStatistics(c: DependencyContainer): ProjectStatisticsContribution {
  const storage = c.resolve(Tokens.Storage);
  return {
    async collect(projectId) {
      // get_project_summary's hot path: plain SQL (see StorageService.query).
      const [raw] = await storage.query<{ n: string | number; last: string | null }>(
        'SELECT COUNT(*) AS n, MAX(updated_at) AS last FROM projects_test_cases WHERE project_id = ?',
        [projectId],
      );
      return { counts: { test_cases: Number(raw?.n ?? 0) }, last_activity: raw?.last ?? null };
    },
  };
}

/** Deletes every test case, memory entry and TCM credential of a project, in the caller's transaction. */
export function testCaseCleanup(c: DependencyContainer): ProjectCleanupContribution {
  const secrets = c.resolve(Tokens.Secrets);
  return {
    async deleteProjectData(em, projectId) {
      await em.delete(TestCaseRow, { project_id: projectId });
      await em.delete(MemoryRow, { project_id: projectId });
      await em.delete(MemoryReuseRow, { project_id: projectId });
      await secrets.purge(tcmSecretKey(projectId), em);
    },
  };
}
