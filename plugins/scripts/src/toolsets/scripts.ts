import {
  conflict,
  inject,
  invalidArgument,
  notModified,
  page,
  pickFields,
  Tokens,
  Tool,
  Toolset,
  unavailable,
  z,
  type Caller,
  type KernelConfig,
  type ProjectAccess,
  type ToolContext,
} from '@testkeeper/kernel';
import { FRAMEWORKS, isFramework } from '../frameworks/catalog.js';
import { removeScriptFiles } from '../frameworks/framework-files.js';
import { applyPatch, type PatchEdit } from '../patch/patch-engine.js';
import { OptionalServices } from '../services/optional-services.js';
import { ScriptStore, toScriptView } from '../services/script-store.js';
import { code, frameworkName, id, MAX_CODE_CHARS, paging, patch, scriptName, token } from './schemas.js';

const SCRIPT_FIELDS = ['code', 'created_at', 'framework', 'id', 'name', 'project_id', 'test_case_id', 'version'] as const;

/**
 * How often an update without expected_version re-reads and retries after losing a race. Every
 * round has a winner, so N simultaneous writers need at most N-1 retries; jitter spreads them.
 */
const UNGUARDED_RETRIES = 25;
const jitter = () => new Promise((r) => setTimeout(r, Math.random() * 10));

export function requireKnownFramework(framework: string): void {
  if (!isFramework(framework)) {
    throw invalidArgument(`framework "${framework}" is not supported`, `Use one of: ${FRAMEWORKS.join(', ')}.`, { allowed: [...FRAMEWORKS] });
  }
}

@Toolset({ id: 'scripts', title: 'Scripts', description: 'Automation scripts: list, read, create, patch and delete' })
export class ScriptsToolset {
  constructor(
    private readonly scripts: ScriptStore,
    private readonly optional: OptionalServices,
    @inject(Tokens.ProjectAccess) private readonly projects: ProjectAccess,
    @inject(Tokens.Config) private readonly config: KernelConfig,
  ) {}

  @Tool({
    name: 'list_scripts',
    description: "List a project's scripts (name, id); offset comes from next_offset.",
    input: z.object({ project_id: id, test_case_id: id.optional(), ...paging }),
    annotations: { readOnlyHint: true },
  })
  async listScripts(args: { project_id: number; test_case_id?: number; limit: number; offset: number }, ctx: ToolContext) {
    await this.projects.requireProject(ctx.caller, args.project_id);
    const [rows, total] = await this.scripts.list(args.project_id, args.test_case_id, args.limit, args.offset);
    const items = rows.map((r) => ({ id: r.id, name: r.name, framework: r.framework, test_case_id: r.test_case_id, version: r.version }));
    return page(items, total, args.limit, args.offset);
  }

  @Tool({
    name: 'get_script',
    description: 'A script with its code; not_modified if the version matches.',
    input: z.object({
      script_id: id,
      fields: z.array(z.enum(SCRIPT_FIELDS)).min(1).optional(),
      if_version_matches: token.optional(),
    }),
    annotations: { readOnlyHint: true },
  })
  async getScript(args: { script_id: number; fields?: string[]; if_version_matches?: string }, ctx: ToolContext) {
    const row = await this.scripts.requireScript(ctx.caller, args.script_id);
    if (args.if_version_matches === row.version) return notModified(row.version);
    return pickFields(toScriptView(row), args.fields);
  }

  @Tool({
    name: 'create_script',
    description: `Save an existing test script (${FRAMEWORKS.join(', ')}).`,
    input: z.object({
      project_id: id,
      test_case_id: id.optional(),
      name: scriptName,
      framework: frameworkName,
      code,
    }),
    annotations: { readOnlyHint: false, destructiveHint: false },
  })
  async createScript(args: { project_id: number; test_case_id?: number; name: string; framework: string; code: string }, ctx: ToolContext) {
    requireKnownFramework(args.framework);
    const project = await this.projects.requireProject(ctx.caller, args.project_id);
    if (args.test_case_id !== undefined) await this.requireTestCaseOf(ctx.caller, args.test_case_id, project.id);
    const row = await this.scripts.create({
      owner_id: project.owner_id,
      project_id: project.id,
      test_case_id: args.test_case_id ?? null,
      name: args.name,
      framework: args.framework,
      code: args.code,
    });
    return toScriptView(row);
  }

  @Tool({
    name: 'update_script',
    description: 'Rename or edit a script. Prefer patch (anchored edits, all or nothing) to code.',
    input: z.object({
      script_id: id,
      name: scriptName.optional(),
      code: code.optional(),
      patch: patch.optional(),
      expected_version: token.optional(),
    }),
    annotations: { readOnlyHint: false, destructiveHint: true },
  })
  async updateScript(args: { script_id: number; name?: string; code?: string; patch?: PatchEdit[]; expected_version?: string }, ctx: ToolContext) {
    if (args.code !== undefined && args.patch !== undefined) {
      throw invalidArgument('code and patch cannot be combined', 'Send either patch (preferred) or the whole code.');
    }
    if (args.name === undefined && args.code === undefined && args.patch === undefined) {
      throw invalidArgument('nothing to update', 'Give name, code or patch.');
    }
    for (let attempt = 0; ; attempt++) {
      const row = await this.scripts.requireScript(ctx.caller, args.script_id);
      if (args.expected_version !== undefined && args.expected_version !== row.version) throw staleVersion(row.id, row.version);
      const values: { name?: string; code?: string } = {};
      if (args.name !== undefined) values.name = args.name;
      if (args.code !== undefined) values.code = args.code;
      let replacements: number[] | undefined;
      if (args.patch) {
        const outcome = applyPatch(row.code, args.patch);
        if (!outcome.ok) {
          throw invalidArgument(`patch rejected, nothing changed: ${outcome.message}`, 'Fetch the current code with get_script and anchor each edit on text that occurs once.', {
            failed_edit: outcome.index,
            reason: outcome.reason,
            occurrences: outcome.occurrences,
            current_version: row.version,
          });
        }
        if (outcome.code.length > MAX_CODE_CHARS) {
          throw invalidArgument(`patch rejected, nothing changed: the script would grow past ${MAX_CODE_CHARS} characters`);
        }
        values.code = outcome.code;
        replacements = outcome.replacements;
      }
      const updated = await this.scripts.updateGuarded(row.id, row.version, values);
      if (updated) return { ...toScriptView(updated), previous_version: row.version, ...(replacements ? { replacements } : {}) };
      // Someone else wrote in between. With expected_version that is the caller's conflict to
      // resolve; without it, re-read and apply again on the fresh code.
      if (args.expected_version !== undefined || attempt >= UNGUARDED_RETRIES) {
        const current = await this.scripts.requireScript(ctx.caller, args.script_id);
        throw staleVersion(current.id, current.version);
      }
      await jitter();
    }
  }

  @Tool({
    name: 'delete_script',
    description: 'Delete a script and its framework file.',
    input: z.object({ script_id: id }),
    annotations: { readOnlyHint: false, destructiveHint: true },
  })
  async deleteScript(args: { script_id: number }, ctx: ToolContext) {
    const row = await this.scripts.requireScript(ctx.caller, args.script_id);
    await this.scripts.delete(row.id);
    await removeScriptFiles(this.config.dataDir, row.project_id, FRAMEWORKS, row.id);
    return { deleted: true, script_id: row.id };
  }

  private async requireTestCaseOf(caller: Caller, testCaseId: number, projectId: number): Promise<void> {
    const reader = this.optional.testCases;
    if (!reader) throw unavailable('test cases are not available on this server', 'Create the script without test_case_id.');
    const tc = await reader.requireTestCase(caller, testCaseId);
    if (tc.project_id !== projectId) {
      throw invalidArgument(`test case ${testCaseId} belongs to another project`, `Use a test case of project ${projectId}.`);
    }
  }
}

function staleVersion(scriptId: number, current: string) {
  return conflict(`script ${scriptId} changed since expected_version`, 'Fetch it with get_script, re-apply your change and send the new version.', {
    current_version: current,
  });
}
