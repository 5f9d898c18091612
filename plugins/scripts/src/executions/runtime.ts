import {
  injectable,
  ScriptRunners,
  Tokens,
  type ExtensionPointView,
  type JobQueue,
  type PluginContext,
  type ProjectMemoryWriter,
  type ScriptRunner,
} from '@testkeeper/kernel';
import { newWorkerId, retireWorkerId } from './worker-identity.js';

const DEFAULT_TIMEOUT_SECONDS = 600;

/**
 * What executions need from the running server, filled in onInit: the contributed runners, the
 * job queue and project memory when they are registered, this instance's worker id and settings.
 */
@injectable()
export class ExecutionsRuntime {
  private view: ExtensionPointView<ScriptRunner> | null = null;
  jobs: JobQueue | null = null;
  memory: ProjectMemoryWriter | null = null;
  workerId = '';
  timeoutMs = DEFAULT_TIMEOUT_SECONDS * 1000;

  init(ctx: PluginContext): void {
    this.view = ctx.extensions(ScriptRunners);
    const c = ctx.container;
    this.jobs = c.isRegistered(Tokens.Jobs, true) ? c.resolve(Tokens.Jobs) : null;
    this.memory = c.isRegistered(Tokens.ProjectMemory, true) ? c.resolve(Tokens.ProjectMemory) : null;
    this.workerId = newWorkerId();
    const seconds = Number(ctx.settings.runTimeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS);
    if (Number.isFinite(seconds) && seconds > 0) this.timeoutMs = seconds * 1000;
  }

  dispose(): void {
    retireWorkerId(this.workerId);
  }

  /** The runner contributed for a framework (first in plugin load order), with its id. */
  runnerFor(framework: string): { id: string; runner: ScriptRunner } | null {
    for (const e of this.view?.all() ?? []) if (e.value.frameworks.includes(framework)) return { id: e.id, runner: e.value };
    return null;
  }
}
