import {
  injectable,
  ModelProviders,
  ScriptRunners,
  type ExtensionPointView,
  type ModelProvider,
  type PluginContext,
  type RunnerAvailability,
  type SamplingChannel,
  type ScriptRunner,
} from '@testkeeper/kernel';

/** Frameworks a project can hold (SPEC: add_script_to_framework) and the tool that runs each. */
export const KNOWN_FRAMEWORKS = [
  { framework: 'browser', run_tool: 'run_tests' },
  { framework: 'pytest', run_tool: 'run_tests' },
  { framework: 'rust_cargo', run_tool: 'run_native_test' },
  { framework: 'go_test', run_tool: 'run_native_test' },
] as const;

export interface FrameworkCapability {
  framework: string;
  runner: string | null;
  available: boolean;
  version?: string;
  reason?: string;
  run_tool: string;
}

/**
 * What this server can actually do, read from other packs' contributions: the runners
 * (`scripts.runners`, with live toolchain checks) and the model providers (`kernel.models`).
 * The views are attached in onInit because contributions are complete only then.
 */
@injectable()
export class CapabilitySources {
  private runners?: ExtensionPointView<ScriptRunner>;
  private models?: ExtensionPointView<ModelProvider>;

  attach(ctx: Pick<PluginContext, 'extensions'>): void {
    this.runners = ctx.extensions(ScriptRunners);
    this.models = ctx.extensions(ModelProviders);
  }

  async frameworks(): Promise<FrameworkCapability[]> {
    const entries = this.runners?.all() ?? [];
    const names = new Set<string>([...KNOWN_FRAMEWORKS.map((k) => k.framework), ...entries.flatMap((e) => e.value.frameworks)]);
    return Promise.all(
      [...names].map(async (framework) => {
        const runTool = KNOWN_FRAMEWORKS.find((k) => k.framework === framework)?.run_tool ?? 'trigger_framework_run';
        const entry = entries.find((e) => e.value.frameworks.includes(framework));
        if (!entry) return { framework, runner: null, available: false, reason: 'no runner for it is installed on this server', run_tool: runTool };
        const a: RunnerAvailability = await entry.value.availability(framework).catch((err: Error) => ({ available: false, reason: err.message }));
        return {
          framework,
          runner: entry.id,
          available: a.available,
          ...(a.version ? { version: a.version } : {}),
          ...(a.reason ? { reason: a.reason } : {}),
          run_tool: runTool,
        };
      }),
    );
  }

  /** The deterministic engine always works; each model provider says whether it can serve this caller. */
  codeGeneration(sampling: SamplingChannel | undefined): Array<{ engine: string; available: boolean; note: string }> {
    const engines = [{ engine: 'deterministic', available: true, note: 'Builds code from structured test-case steps; needs no model.' }];
    for (const e of this.models?.all() ?? []) {
      let available = false;
      try {
        available = e.value.available({ ...(sampling ? { sampling } : {}) });
      } catch {
        available = false;
      }
      const note = e.id === 'mcp_sampling' ? "Uses the connected client's own model (MCP sampling)." : 'A model configured on this server.';
      engines.push({ engine: e.id, available, note });
    }
    return engines;
  }
}
