import { existsSync } from 'node:fs';
import {
  inject,
  invalidArgument,
  notFound,
  page,
  Tokens,
  Tool,
  Toolset,
  z,
  type KernelConfig,
  type Logger,
  type ProjectAccess,
  type ToolContext,
} from '@testkeeper/kernel';
import { DEFAULT_FRAMEWORK, isFramework, RUN_COMMAND, type Framework } from '../frameworks/catalog.js';
import { zipDirectory } from '../frameworks/export.js';
import { ensureFramework, writeScriptFile } from '../frameworks/framework-files.js';
import { frameworkDir } from '../frameworks/layout.js';
import { PendingStore, toPendingView } from '../services/pending-store.js';
import { ScriptStore } from '../services/script-store.js';
import { frameworkName, id, paging, token } from './schemas.js';
import { requireKnownFramework } from './scripts.js';

@Toolset({ id: 'frameworks', title: 'Frameworks', description: "A project's runnable test frameworks: add scripts, export, accept proposed tests" })
export class FrameworksToolset {
  constructor(
    private readonly scripts: ScriptStore,
    private readonly pending: PendingStore,
    @inject(Tokens.ProjectAccess) private readonly projects: ProjectAccess,
    @inject(Tokens.Config) private readonly config: KernelConfig,
    @inject(Tokens.Logger) private readonly logger: Logger,
  ) {}

  @Tool({
    name: 'add_script_to_framework',
    description: "Write a script into its project's framework, creating it if needed.",
    input: z.object({
      script_id: id,
      framework: frameworkName.optional().describe("Default: the script's"),
    }),
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
  })
  async addScriptToFramework(args: { script_id: number; framework?: string }, ctx: ToolContext) {
    const script = await this.scripts.requireScript(ctx.caller, args.script_id);
    const asked = args.framework ?? script.framework;
    const framework: Framework = isFramework(asked) ? asked : DEFAULT_FRAMEWORK;
    const fellBack = framework !== asked;
    if (script.framework !== framework) {
      throw invalidArgument(
        `script ${script.id} is a ${script.framework} script and cannot go into the ${framework} framework${fellBack ? ` ("${asked}" is unknown and falls back to ${DEFAULT_FRAMEWORK})` : ''}`,
        `Add it to the ${script.framework} framework (omit framework).`,
      );
    }
    const { dir, created } = await ensureFramework(this.config.dataDir, script.project_id, framework);
    const { file, replaced } = await writeScriptFile(this.config.dataDir, script.project_id, framework, script);
    return {
      script_id: script.id,
      project_id: script.project_id,
      framework,
      file,
      framework_dir: dir,
      framework_created: created,
      ...(replaced.length ? { replaced } : {}),
      ...(fellBack ? { fell_back_from: asked, note: `Unknown framework "${asked}"; used ${DEFAULT_FRAMEWORK}.` } : {}),
    };
  }

  @Tool({
    name: 'export_framework',
    description: "Zip a project's framework to a temporary file; returns path and size.",
    input: z.object({ project_id: id, framework: frameworkName.default(DEFAULT_FRAMEWORK) }),
    annotations: { readOnlyHint: true },
  })
  async exportFramework(args: { project_id: number; framework: string }, ctx: ToolContext) {
    requireKnownFramework(args.framework);
    const framework = args.framework as Framework;
    const project = await this.projects.requireProject(ctx.caller, args.project_id);
    const dir = frameworkDir(this.config.dataDir, project.id, framework);
    if (!existsSync(dir)) {
      throw invalidArgument(`project ${project.id} has no ${framework} framework yet`, 'Add a script to it with add_script_to_framework first.');
    }
    const zip = await zipDirectory(dir, `project-${project.id}-${framework}`);
    return { path: zip.path, size_bytes: zip.size_bytes, framework, files: zip.files.length, run_command: RUN_COMMAND[framework] };
  }

  @Tool({
    name: 'list_pending_tests',
    description: "List a project's proposed tests awaiting accept_pending_tests.",
    input: z.object({ project_id: id, include_code: z.boolean().default(false), ...paging }),
    annotations: { readOnlyHint: true },
  })
  async listPendingTests(args: { project_id: number; include_code: boolean; limit: number; offset: number }, ctx: ToolContext) {
    await this.projects.requireProject(ctx.caller, args.project_id);
    const [rows, total] = await this.pending.list(args.project_id, 'pending', args.limit, args.offset);
    return page(rows.map((r) => toPendingView(r, args.include_code)), total, args.limit, args.offset);
  }

  @Tool({
    name: 'accept_pending_tests',
    description: 'Accept proposed tests as scripts (all if pending_test_id is omitted).',
    input: z.object({ project_id: id, pending_test_id: token.optional() }),
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
  })
  async acceptPendingTests(args: { project_id: number; pending_test_id?: string }, ctx: ToolContext) {
    const project = await this.projects.requireProject(ctx.caller, args.project_id);
    let targets;
    if (args.pending_test_id !== undefined) {
      const one = await this.pending.find(project.id, args.pending_test_id);
      if (!one) throw notFound('pending test', args.pending_test_id, 'List them with list_pending_tests.');
      targets = [one];
    } else {
      targets = await this.pending.pendingOf(project.id);
    }
    const accepted = [];
    const already = [];
    for (const p of targets) {
      const script = p.status === 'pending' ? await this.pending.accept(p) : null;
      if (!script) {
        const now = await this.pending.find(project.id, p.id);
        already.push({ pending_test_id: p.id, script_id: now?.script_id ?? null });
        continue;
      }
      const framework = script.framework as Framework;
      const item = { pending_test_id: p.id, script_id: script.id, name: script.name, framework };
      try {
        await ensureFramework(this.config.dataDir, project.id, framework);
        accepted.push({ ...item, file: (await writeScriptFile(this.config.dataDir, project.id, framework, script)).file });
      } catch (err) {
        // The script exists (committed); only its file is missing, and add_script_to_framework can retry.
        this.logger.error({ err, script: script.id }, 'could not write an accepted test into its framework');
        accepted.push({ ...item, file: null, file_error: 'the test file could not be written; retry with add_script_to_framework' });
      }
    }
    return { accepted, already_accepted: already, frameworks: [...new Set(accepted.map((a) => a.framework))] };
  }
}


