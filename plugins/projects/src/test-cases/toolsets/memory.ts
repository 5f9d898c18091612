import { inject, invalidArgument, notFound, positiveId, Tokens, Tool, Toolset, z, type ProjectAccess, type ToolContext } from '@testkeeper/kernel';
import { line, text } from '../domain/text-limits.js';
import { MAX_MEMORY_TEXT, ProjectMemoryService } from '../services/memory-service.js';
import { TestCaseService } from '../services/test-case-service.js';

const id = positiveId;

@Toolset({ id: 'project_memory', title: 'Project memory', description: 'Durable project learnings with provenance' })
export class MemoryToolset {
  constructor(
    @inject(Tokens.ProjectAccess) private readonly projects: ProjectAccess,
    @inject(ProjectMemoryService) private readonly memory: ProjectMemoryService,
    @inject(TestCaseService) private readonly cases: TestCaseService,
  ) {}

  /** The test case must be the caller's and belong to this project. */
  private async checkTestCase(ctx: ToolContext, projectId: number, testCaseId: number | undefined) {
    if (testCaseId === undefined) return;
    const row = await this.cases.requireRow(ctx.caller, testCaseId);
    if (row.project_id !== projectId) throw notFound('test case', testCaseId, `Test case ${testCaseId} is not in project ${projectId}.`);
  }

  @Tool({
    name: 'get_project_memory',
    description: 'Project learnings and verified runs, ranked by query. Read before writing tests.',
    input: z.object({
      project_id: id,
      test_case_id: id.optional(),
      limit: z.number().int().min(1).max(20).default(10),
      query: line(500).optional(),
      intent: line(200).optional().describe('With query only'),
      downstream_reuse: z.boolean().optional().describe('Aggregate telemetry'),
    }),
    // Reads memory; `downstream_reuse` only bumps an anonymous per-project counter.
    annotations: { readOnlyHint: true },
  })
  async get(args: { project_id: number; test_case_id?: number; limit: number; query?: string; intent?: string; downstream_reuse?: boolean }, ctx: ToolContext) {
    if (args.intent !== undefined && args.query === undefined) throw invalidArgument('intent is only valid together with query', 'Pass query as well, or drop intent.');
    const project = await this.projects.requireProject(ctx.caller, args.project_id);
    await this.checkTestCase(ctx, project.id, args.test_case_id);
    const { entries, ranking } = await this.memory.retrieve({ projectId: project.id, testCaseId: args.test_case_id, limit: args.limit, query: args.query, intent: args.intent });
    if (args.downstream_reuse !== undefined) await this.memory.countReuse(project.id, args.downstream_reuse);
    return {
      project_id: project.id,
      entries,
      ranking,
      total_entries: await this.memory.count(project.id),
      downstream_reuse: await this.memory.reuseTotals(project.id),
    };
  }

  @Tool({
    name: 'record_project_learning',
    description: 'Record a learning (selectors, flaky areas, test data) for later agents.',
    input: z.object({
      project_id: id,
      text: text(MAX_MEMORY_TEXT),
      test_case_id: id.optional(),
      source_ref: line(300).optional(),
    }),
    annotations: { readOnlyHint: false, destructiveHint: false },
  })
  async record(args: { project_id: number; text: string; test_case_id?: number; source_ref?: string }, ctx: ToolContext) {
    if (!args.text.trim()) throw invalidArgument('text is empty', 'Write the learning as one or two sentences.');
    const project = await this.projects.requireProject(ctx.caller, args.project_id);
    await this.checkTestCase(ctx, project.id, args.test_case_id);
    const out = await this.memory.record({
      project_id: project.id,
      owner_id: project.owner_id,
      kind: 'learning',
      text: args.text,
      test_case_id: args.test_case_id ?? null,
      source: `agent:${ctx.caller.username}`,
      source_ref: args.source_ref ?? null,
    });
    return { recorded: !out.duplicate, memory_id: out.id, ...(out.duplicate ? { note: 'The same learning was already recorded; nothing new was stored.' } : {}) };
  }
}
