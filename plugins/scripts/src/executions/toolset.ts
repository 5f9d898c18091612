import { existsSync } from 'node:fs';
import {
  inject,
  invalidArgument,
  notFound,
  positiveId,
  Tokens,
  Tool,
  Toolset,
  unavailable,
  z,
  type KernelConfig,
  type ProjectAccess,
  type ToolContext,
} from '@testkeeper/kernel';
import { FRAMEWORKS, type Framework } from '../frameworks/catalog.js';
import { ensureFramework } from '../frameworks/framework-files.js';
import { frameworkDir } from '../frameworks/layout.js';
import { OptionalServices } from '../services/optional-services.js';
import { ScriptStore } from '../services/script-store.js';
import type { ExecutionRow } from './entities.js';
import { ExecutionExecutor } from './executor.js';
import { ExecutionLauncher } from './launcher.js';
import { ExecutionStore } from './execution-store.js';
import { executionView } from './execution-view.js';
import { ExecutionsRuntime } from './runtime.js';
import { writeIfChanged } from './script-file.js';

const NATIVE: readonly string[] = ['rust_cargo', 'go_test'];

const baseUrl = z
  .string()
  .max(2000)
  .url()
  .refine((u) => /^https?:\/\//i.test(u), 'must be an http(s) URL')
  .optional()
  .describe('Exported as BASE_URL');

@Toolset({ id: 'executions', title: 'Executions', description: 'Run scripts and frameworks; read execution records' })
export class ExecutionsToolset {
  constructor(
    private readonly store: ExecutionStore,
    private readonly executor: ExecutionExecutor,
    private readonly launcher: ExecutionLauncher,
    private readonly runtime: ExecutionsRuntime,
    private readonly scripts: ScriptStore,
    private readonly optional: OptionalServices,
    @inject(Tokens.ProjectAccess) private readonly projects: ProjectAccess,
    @inject(Tokens.Config) private readonly config: KernelConfig,
  ) {}

  @Tool({
    name: 'get_execution',
    description: 'Status, timing and outcome of an execution; logs only counted unless asked.',
    input: z.object({
      execution_id: z.union([z.string().min(1).max(64), positiveId]).describe('Or an integer result_id'),
      include_receipt_details: z.boolean().optional(),
      include_logs: z.boolean().optional(),
      include_artifacts: z.boolean().optional(),
    }),
    annotations: { readOnlyHint: true },
  })
  async getExecution(
    args: { execution_id: string | number; include_receipt_details?: boolean; include_logs?: boolean; include_artifacts?: boolean },
    ctx: ToolContext,
  ) {
    const { row, resultId } = await this.find(args.execution_id, ctx.caller.userId);
    const current = await this.launcher.reconcile(row);
    return executionView(current, await this.store.resultsOf(current.id), {
      include_receipt_details: args.include_receipt_details === true,
      include_logs: args.include_logs === true,
      include_artifacts: args.include_artifacts === true,
      ...(resultId !== undefined ? { result_id: resultId } : {}),
    });
  }

  @Tool({
    name: 'run_native_test',
    description: 'Run a rust_cargo or go_test script now and return its results.',
    input: z.object({ script_id: positiveId, base_url: baseUrl }),
    annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: true },
  })
  async runNativeTest(args: { script_id: number; base_url?: string }, ctx: ToolContext) {
    const script = await this.scripts.requireScript(ctx.caller, args.script_id);
    if (!NATIVE.includes(script.framework)) {
      throw invalidArgument(
        `script ${script.id} is a ${script.framework} script; run_native_test runs only rust_cargo and go_test scripts`,
        'Run browser and pytest scripts with run_tests.',
      );
    }
    const framework = script.framework as Framework;
    const found = this.runtime.runnerFor(framework);
    if (!found) throw unavailable(`no runner for ${framework} is installed on this server`, 'Enable the runner-native plugin.');
    const availability = await found.runner.availability(framework);
    if (!availability.available) throw unavailable(`the ${framework} toolchain is not available: ${availability.reason ?? 'unknown reason'}`);

    // The same file add_script_to_framework writes; only that file is run.
    const [file, testCaseVersion] = await Promise.all([
      ensureFramework(this.config.dataDir, script.project_id, framework).then(() => writeIfChanged(this.config.dataDir, framework, script)),
      this.testCaseVersion(ctx, script.test_case_id),
    ]);
    const row = await this.store.create({
      owner_id: script.owner_id,
      project_id: script.project_id,
      kind: 'native_test',
      status: 'running',
      script_id: script.id,
      test_case_id: script.test_case_id,
      frameworks: [framework],
      base_url: args.base_url ?? null,
      worker_id: this.runtime.workerId,
    });
    const plan = { items: [{ framework, files: [file] }], script_version: script.version, test_case_version: testCaseVersion };
    const outcome = await this.executor.run(row, plan, ctx.signal, (done, total, message) => ctx.progress(done, total, message)).catch(async (err: unknown) => {
      await this.store.markInterrupted(row.id, `internal error while running: ${(err as Error).message}`);
      throw err;
    });
    const run = outcome.runs[0]!;
    return {
      execution_id: row.execution_id,
      result_id: outcome.results[0]?.id ?? null,
      script_id: script.id,
      framework,
      file,
      status: run.status,
      passed: run.passed,
      failed: run.failed,
      skipped: run.skipped,
      total: run.total,
      duration: Math.round(run.duration_ms) / 1000,
      duration_ms: run.duration_ms,
      console_logs: run.console_logs,
      stdout: run.stdout,
      stderr: run.stderr,
      ...(run.error ? { error: run.error } : {}),
      ...(run.tool_version ? { tool_version: run.tool_version } : {}),
    };
  }

  @Tool({
    name: 'trigger_framework_run',
    description: "Run a project's whole framework in the background; poll get_execution.",
    input: z.object({ project_id: positiveId }),
    annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: true },
  })
  async triggerFrameworkRun(args: { project_id: number }, ctx: ToolContext) {
    const project = await this.projects.requireProject(ctx.caller, args.project_id);
    const present = FRAMEWORKS.filter((f) => existsSync(frameworkDir(this.config.dataDir, project.id, f)));
    if (present.length === 0) {
      throw invalidArgument(
        `project ${project.id} has no test framework yet`,
        'Create one by adding a script to it: add_script_to_framework(script_id), then call trigger_framework_run again.',
      );
    }
    const runnable = present.filter((f) => this.runtime.runnerFor(f));
    const withoutRunner = present.filter((f) => !runnable.includes(f));
    if (runnable.length === 0) {
      throw unavailable(`no runner is installed for this project's framework(s): ${present.join(', ')}`, 'Enable the plugin that runs them (runner-native runs rust_cargo, go_test and pytest).');
    }
    const row = await this.store.create({
      owner_id: project.owner_id,
      project_id: project.id,
      kind: 'framework_run',
      status: 'queued',
      script_id: null,
      test_case_id: null,
      frameworks: runnable,
      base_url: null,
      // The creator; the process that claims the run replaces it.
      worker_id: this.runtime.workerId,
    });
    await this.launcher.launch(row, { items: runnable.map((framework) => ({ framework })), script_version: null, test_case_version: null });
    return {
      execution_id: row.execution_id,
      status: 'queued',
      frameworks: runnable,
      ...(withoutRunner.length ? { not_run: withoutRunner.map((f) => ({ framework: f, reason: 'no runner installed for it' })) } : {}),
      next_action: 'Poll get_execution with this execution_id until the status is passed, failed, error, timed_out or cancelled.',
    };
  }

  private async find(id: string | number, userId: number): Promise<{ row: ExecutionRow; resultId?: number }> {
    const asResult = typeof id === 'number' ? id : /^\d+$/.test(id) ? Number(id) : null;
    if (asResult !== null) {
      const result = await this.store.result(asResult);
      const row = result && result.owner_id === userId ? await this.store.byId(result.execution_row_id) : null;
      if (!row || row.owner_id !== userId) throw notFound('execution', id);
      return { row, resultId: asResult };
    }
    const row = await this.store.byPublicId(String(id));
    if (!row || row.owner_id !== userId) throw notFound('execution', id);
    return { row };
  }

  private async testCaseVersion(ctx: ToolContext, testCaseId: number | null): Promise<string | null> {
    if (testCaseId === null || !this.optional.testCases) return null;
    return this.optional.testCases
      .requireTestCase(ctx.caller, testCaseId)
      .then((tc) => tc.version)
      .catch(() => null);
  }
}
