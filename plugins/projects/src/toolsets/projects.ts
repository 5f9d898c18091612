import { inject, invalidArgument, page, paging, positiveId, Tokens, Tool, Toolset, z, type StorageService, type ToolContext } from '@testkeeper/kernel';
import { PROJECT_TYPES, ProjectRow, type ProjectType } from '../entities/project.js';
import { effectiveGates, GATE_KEYS, parseSettings, unknownGateKeys, type Gates } from '../services/gates.js';
import { checkExplicitKey } from '../services/keys.js';
import { ProjectCreation } from '../services/project-creation.js';
import { ProjectDeletion } from '../services/project-deletion.js';
import { ProjectStore } from '../services/project-store.js';
import { ProjectSummaries, SUMMARY_FIELDS, type SummaryField } from '../services/project-summary.js';
import { projectView } from '../services/project-view.js';
import { isHttpUrl } from '../services/urls.js';

const listInput = { ...paging, offset: paging.offset.describe('From next_offset of the previous page') };
const projectId = positiveId;
const name = z.string().trim().min(1).max(200);
// Length limits are checked in refinements to keep them out of the tools/list payload.
const description = z.string().refine((v) => v.length <= 10_000, { message: 'must be at most 10000 characters' });
const URL_MESSAGE = 'must be an http(s) URL of at most 2000 characters, such as https://app.example.com';
const mainUrl = z.string().refine((v) => v.length <= 2000 && isHttpUrl(v), { message: URL_MESSAGE });
/** update_project: an empty string clears the URL. */
const mainUrlOrEmpty = z.string().refine((v) => v === '' || (v.length <= 2000 && isHttpUrl(v)), { message: `${URL_MESSAGE}, or "" to clear it` });

@Toolset({ id: 'projects', title: 'Projects', description: 'Create, list, update and delete test projects' })
export class ProjectsToolset {
  constructor(
    @inject(Tokens.Storage) private readonly storage: StorageService,
    @inject(ProjectCreation) private readonly creation: ProjectCreation,
    @inject(ProjectStore) private readonly store: ProjectStore,
    @inject(ProjectDeletion) private readonly deletion: ProjectDeletion,
    @inject(ProjectSummaries) private readonly summaries: ProjectSummaries,
  ) {}

  @Tool({
    name: 'list_projects',
    description: 'List your projects. Call before create_project.',
    input: z.object(listInput),
    annotations: { readOnlyHint: true },
  })
  async listProjects(args: { limit: number; offset: number }, ctx: ToolContext) {
    const [rows, total] = await this.storage.repo(ProjectRow).findAndCount({
      where: { owner_id: ctx.caller.userId },
      order: { id: 'ASC' },
      take: args.limit,
      skip: args.offset,
    });
    return page(
      rows.map((r) => ({ project_id: r.id, name: r.name, key: r.key, slug: r.slug, project_type: r.project_type, main_url: r.main_url })),
      total,
      args.limit,
      args.offset,
    );
  }

  @Tool({
    name: 'create_project',
    description: 'Create a project. A similar existing one gives needs_confirmation unless force_create.',
    input: z.object({
      name,
      key: z.string().optional().describe('≤10 A-Z/0-9, default from name'),
      description: description.optional(),
      main_url: mainUrl.optional(),
      project_type: z.enum(PROJECT_TYPES).optional(),
      force_create: z.boolean().optional(),
    }),
    annotations: { readOnlyHint: false, destructiveHint: false },
  })
  async createProject(
    args: { name: string; key?: string; description?: string; main_url?: string; project_type?: ProjectType; force_create?: boolean },
    ctx: ToolContext,
  ) {
    let key: string | undefined;
    if (args.key !== undefined) {
      const checked = checkExplicitKey(args.key);
      if ('problem' in checked) throw invalidArgument(checked.problem, 'Use up to 10 letters and digits, or omit key to derive one from the name.');
      key = checked.key;
    }
    const row = await this.creation.create(ctx.caller, {
      name: args.name,
      key,
      description: args.description ?? '',
      main_url: args.main_url ?? null,
      project_type: args.project_type ?? 'web',
      force_create: args.force_create === true,
    });
    return projectView(row);
  }

  @Tool({
    name: 'update_project',
    description: 'Update name, description or main_url ("" clears it).',
    input: z.object({ project_id: projectId, name: name.optional(), description: description.optional(), main_url: mainUrlOrEmpty.optional() }),
    annotations: { readOnlyHint: false, destructiveHint: false },
  })
  async updateProject(args: { project_id: number; name?: string; description?: string; main_url?: string }, ctx: ToolContext) {
    const { project_id, main_url, ...rest } = args;
    const changes = { ...rest, ...(main_url === undefined ? {} : { main_url: main_url === '' ? null : main_url }) };
    if (Object.values(changes).every((v) => v === undefined)) {
      throw invalidArgument('nothing to update', 'Give at least one of name, description, main_url.');
    }
    return projectView(await this.store.update(ctx.caller, project_id, changes));
  }

  @Tool({
    name: 'delete_project',
    description: 'Delete a project with its test cases, scripts and executions.',
    input: z.object({ project_id: projectId }),
    annotations: { readOnlyHint: false, destructiveHint: true },
  })
  async deleteProject(args: { project_id: number }, ctx: ToolContext) {
    return { deleted: true, ...(await this.deletion.delete(ctx.caller, args.project_id)) };
  }

  @Tool({
    name: 'get_project_summary',
    description: 'Project, statistics and last_activity (all unless fields is given).',
    input: z.object({ project_id: projectId, fields: z.array(z.enum(SUMMARY_FIELDS)).optional() }),
    annotations: { readOnlyHint: true },
  })
  async getProjectSummary(args: { project_id: number; fields?: SummaryField[] }, ctx: ToolContext) {
    return this.summaries.summary(ctx.caller, args.project_id, args.fields);
  }

  @Tool({
    name: 'update_project_pipeline_gates',
    description:
      'Turn PR gates _pipeline_run_{tests,beta,ai_review,sast,sast_verify,sast_fixes,bola,tech_debt} on or off.',
    input: z.object({ project_id: projectId, gates: z.object({}).catchall(z.boolean()) }),
    annotations: { readOnlyHint: false, destructiveHint: false },
  })
  async updatePipelineGates(args: { project_id: number; gates: Record<string, boolean> }, ctx: ToolContext) {
    const unknown = unknownGateKeys(args.gates);
    if (unknown.length) {
      throw invalidArgument(
        `unknown gate key${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}; allowed keys: ${GATE_KEYS.join(', ')}`,
        'Use only the allowed gate keys; nothing was changed.',
        { unknown, allowed: [...GATE_KEYS] },
      );
    }
    if (Object.keys(args.gates).length === 0) {
      throw invalidArgument('gates is empty', `Give at least one of: ${GATE_KEYS.join(', ')}.`, { allowed: [...GATE_KEYS] });
    }
    const row = await this.store.setGates(ctx.caller, args.project_id, args.gates as Partial<Gates>);
    return { project_id: row.id, gates: effectiveGates(parseSettings(row.test_frameworks)), version: row.version };
  }
}
