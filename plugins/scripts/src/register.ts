import { rm } from 'node:fs/promises';
import { newVersion, ProjectCleanup, ProjectStatistics, TestCaseRelations, Tokens, type PluginRegistrar } from '@testkeeper/kernel';
import { PendingTestRow } from './entities/pending-test.js';
import { ScriptRow } from './entities/script.js';
import { projectFrameworksRoot } from './frameworks/layout.js';
import { ScriptsCreate1700000002001 } from './migrations/001-scripts.js';
import { ScriptsPendingTests1700000002002 } from './migrations/002-pending-tests.js';
import { GenerationService } from './services/generation-service.js';
import { OptionalServices } from './services/optional-services.js';
import { PendingStore } from './services/pending-store.js';
import { ScriptStore } from './services/script-store.js';
import { FrameworksToolset } from './toolsets/frameworks.js';
import { GenerationToolset } from './toolsets/generation.js';
import { ScriptsToolset } from './toolsets/scripts.js';

/** Scripts, patches, frameworks, generation and pending tests. */
export function registerScripts(reg: PluginRegistrar): void {
  reg.entities(ScriptRow, PendingTestRow);
  reg.migrations(ScriptsCreate1700000002001, ScriptsPendingTests1700000002002);
  reg.service(ScriptStore, ScriptStore);
  reg.service(PendingStore, PendingStore);
  reg.service(OptionalServices, OptionalServices);
  reg.service(GenerationService, GenerationService);
  reg.toolsets(ScriptsToolset, FrameworksToolset, GenerationToolset);

  reg.contribute(ProjectStatistics, 'scripts', (c) => ({
    async collect(projectId) {
      const { count, last } = await c.resolve(ScriptStore).countForProject(projectId);
      return { counts: { scripts: count }, last_activity: last };
    },
  }));
  reg.contribute(ProjectCleanup, 'scripts', (c) => ({
    async deleteProjectData(em, projectId) {
      await em.getRepository(PendingTestRow).delete({ project_id: projectId });
      await em.getRepository(ScriptRow).delete({ project_id: projectId });
    },
    async afterProjectDeleted(projectId) {
      await rm(projectFrameworksRoot(c.resolve(Tokens.Config).dataDir, projectId), { recursive: true, force: true });
    },
  }));
  reg.contribute(TestCaseRelations, 'scripts', (c) => ({
    key: 'scripts',
    async related(testCaseId) {
      const rows = await c.resolve(ScriptStore).forTestCase(testCaseId);
      return rows.map((r) => ({ id: r.id, name: r.name, framework: r.framework, version: r.version }));
    },
    // Scripts outlive their test case (they still run); proposals made from it have no reason left.
    async unlinkTestCase(em, testCaseId) {
      await em.getRepository(PendingTestRow).delete({ test_case_id: testCaseId });
      await em.getRepository(ScriptRow).update({ test_case_id: testCaseId }, { test_case_id: null, version: newVersion(), updated_at: new Date().toISOString() });
    },
  }));

  reg.onInit((ctx) => {
    ctx.container.resolve(OptionalServices).resolveFrom(ctx.container);
    ctx.container.resolve(GenerationService).defineJobs();
  });
}
