import { rm } from 'node:fs/promises';
import path from 'node:path';
import { ProjectCleanup, ProjectStatistics, Tokens, type PluginRegistrar } from '@testkeeper/kernel';
import { projectCacheDir } from './artifacts.js';
import { ExecutionResultRow, ExecutionRow } from './entities.js';
import { ExecutionExecutor } from './executor.js';
import { ExecutionLauncher } from './launcher.js';
import { ScriptsExecutions1700000002101 } from './migration.js';
import { ExecutionStore } from './execution-store.js';
import { ExecutionsRuntime } from './runtime.js';
import { ExecutionsToolset } from './toolset.js';

/** Executions: records, get_execution, trigger_framework_run, run_native_test dispatch. */
export function registerExecutions(reg: PluginRegistrar): void {
  reg.entities(ExecutionRow, ExecutionResultRow);
  reg.migrations(ScriptsExecutions1700000002101);
  reg.service(ExecutionsRuntime, ExecutionsRuntime);
  reg.service(ExecutionStore, ExecutionStore);
  reg.service(ExecutionExecutor, ExecutionExecutor);
  reg.service(ExecutionLauncher, ExecutionLauncher);
  reg.toolsets(ExecutionsToolset);

  reg.contribute(ProjectStatistics, 'executions', (c) => ({
    async collect(projectId) {
      const { count, last } = await c.resolve(ExecutionStore).countForProject(projectId);
      return { counts: { executions: count }, last_activity: last };
    },
  }));
  reg.contribute(ProjectCleanup, 'executions', (c) => ({
    async deleteProjectData(em, projectId) {
      const ids = (await em.getRepository(ExecutionRow).find({ where: { project_id: projectId }, select: { id: true } })).map((r) => r.id);
      for (const id of ids) await em.getRepository(ExecutionResultRow).delete({ execution_row_id: id });
      await em.getRepository(ExecutionRow).delete({ project_id: projectId });
    },
    async afterProjectDeleted(projectId) {
      const dataDir = c.resolve(Tokens.Config).dataDir;
      await rm(path.join(path.resolve(dataDir), 'executions', String(projectId)), { recursive: true, force: true });
      await rm(projectCacheDir(dataDir, projectId), { recursive: true, force: true });
    },
  }));

  reg.onInit(async (ctx) => {
    ctx.container.resolve(ExecutionsRuntime).init(ctx);
    const launcher = ctx.container.resolve(ExecutionLauncher);
    launcher.defineJobs();
    await launcher.sweep();
  });
  reg.onDispose(async (ctx) => {
    await ctx.container.resolve(ExecutionLauncher).dispose();
    ctx.container.resolve(ExecutionsRuntime).dispose();
  });
}
