import {
  inject,
  invalidArgument,
  conflict,
  notModified,
  page,
  paging,
  pickFields,
  positiveId,
  Tokens,
  Tool,
  Toolset,
  z,
  type ModelService,
  type ProjectAccess,
  type StorageService,
  type ToolContext,
} from '@testkeeper/kernel';
import { normalizePriority } from '../domain/priority.js';
import { line, text } from '../domain/text-limits.js';
import { DEFAULT_STATUS, normalizeStatus } from '../domain/status.js';
import { normalizeTags, parseSteps } from '../domain/steps.js';
import { TestCaseRow } from '../entities/test-case.js';
import { generateStepsTask } from '../engines/model-tasks.js';
import { TestCaseRelationsView } from '../services/relations.js';
import { rankedSearch, queryTerms } from '../services/search.js';
import { toRecord, toSummary } from '../services/test-case-records.js';
import { TestCaseService } from '../services/test-case-service.js';

const id = positiveId;
const priority = z.union([z.number(), z.string()]).describe('1-5 or critical|high|medium|low');
const tags = z.array(text(50)).refine((a) => a.length <= 30, { message: 'at most 30 tags' });
const RECORD_FIELDS = ['category', 'description', 'detailed_instructions', 'id', 'preconditions', 'priority', 'project_id', 'status', 'steps', 'tags', 'title', 'version'] as const;

@Toolset({ id: 'test_cases', title: 'Test cases', description: 'Create, read, update, delete, list and search test cases' })
export class TestCasesToolset {
  constructor(
    @inject(Tokens.Storage) private readonly storage: StorageService,
    @inject(Tokens.ProjectAccess) private readonly projects: ProjectAccess,
    @inject(Tokens.Models) private readonly models: ModelService,
    @inject(TestCaseService) private readonly cases: TestCaseService,
    @inject(TestCaseRelationsView) private readonly relations: TestCaseRelationsView,
  ) {}

  @Tool({
    name: 'create_test_case',
    description: 'Create a test case; steps are generated unless given or auto_generate_steps=false.',
    input: z.object({
      project_id: id,
      title: line(500),
      description: text(20000).optional(),
      detailed_instructions: text(50000).optional(),
      steps: z.array(z.unknown()).optional().describe('[{step, expected?, resource_id?}]'),
      auto_generate_steps: z.boolean().optional(),
      priority: priority.optional(),
      category: text(100).optional(),
      tags: tags.optional(),
    }),
    annotations: { readOnlyHint: false, destructiveHint: false },
  })
  async create(
    args: {
      project_id: number;
      title: string;
      description?: string;
      detailed_instructions?: string;
      steps?: unknown[];
      auto_generate_steps?: boolean;
      priority?: number | string;
      category?: string;
      tags?: string[];
    },
    ctx: ToolContext,
  ) {
    const project = await this.projects.requireProject(ctx.caller, args.project_id);
    const prio = args.priority === undefined ? 'medium' : normalizePriority(args.priority);
    let steps = args.steps ? parseSteps(args.steps) : [];
    let preconditions = '';
    let generation: Record<string, unknown> | undefined;
    if (steps.length === 0 && args.auto_generate_steps !== false) {
      const out = await generateStepsTask(this.models, ctx, args.title, args.description ?? '');
      steps = parseSteps(out.value.steps);
      preconditions = out.value.preconditions.join('\n');
      generation = { engine: out.engine, ...(out.model ? { model: out.model } : {}), ...(out.fallback_reason ? { fallback_reason: out.fallback_reason } : {}) };
    }
    const row = await this.storage.write((em) =>
      this.cases.insert(em, {
        project_id: project.id,
        owner_id: project.owner_id,
        title: args.title,
        description: args.description ?? '',
        detailed_instructions: args.detailed_instructions ?? '',
        preconditions,
        steps: JSON.stringify(steps),
        expected_result: '',
        priority: prio,
        category: args.category?.trim() ?? '',
        tags: JSON.stringify(normalizeTags(args.tags ?? [])),
        status: DEFAULT_STATUS,
        source_name: null,
        external_ref: null,
      }),
    );
    return { ...toRecord(row), steps_generated: generation !== undefined, ...(generation ?? {}) };
  }

  @Tool({
    name: 'get_test_case',
    description: 'A test case with related scripts; not_modified if the version matches.',
    input: z.object({
      test_case_id: id,
      fields: z.array(z.enum(RECORD_FIELDS)).max(RECORD_FIELDS.length).optional(),
      if_version_matches: text(100).optional(),
    }),
    annotations: { readOnlyHint: true },
  })
  async get(args: { test_case_id: number; fields?: string[]; if_version_matches?: string }, ctx: ToolContext) {
    const row = await this.cases.requireRow(ctx.caller, args.test_case_id);
    if (args.if_version_matches !== undefined && args.if_version_matches === row.version) return notModified(row.version);
    const record = toRecord(row);
    if (args.fields?.length) return pickFields(record, args.fields);
    return { ...record, ...(await this.relations.collect(row.id)) };
  }

  @Tool({
    name: 'update_test_case',
    description:
      'Update a test case. A steps array replaces steps; a string becomes detailed_instructions.',
    input: z.object({
      test_case_id: id,
      title: line(500).optional(),
      description: text(20000).optional(),
      steps: z.union([z.array(z.unknown()), text(50000)]).optional(),
      expected_result: text(5000).optional(),
      category: text(100).optional(),
      priority: priority.optional(),
      status: text(20).optional().describe('draft|ready|active|deprecated'),
    }),
    annotations: { readOnlyHint: false, destructiveHint: false },
  })
  async update(
    args: {
      test_case_id: number;
      title?: string;
      description?: string;
      steps?: unknown[] | string;
      expected_result?: string;
      category?: string;
      priority?: number | string;
      status?: string;
    },
    ctx: ToolContext,
  ) {
    const { test_case_id, ...changes } = args;
    const given = Object.keys(changes).filter((k) => (changes as Record<string, unknown>)[k] !== undefined);
    if (given.length === 0) throw invalidArgument('Nothing to update', 'Give at least one of title, description, steps, expected_result, category, priority, status.');
    // Validate everything before touching the row: a bad value writes nothing.
    const values: Partial<TestCaseRow> = {};
    let stepsUpdate: string | undefined;
    if (args.title !== undefined) values.title = args.title;
    if (args.description !== undefined) values.description = args.description;
    if (args.expected_result !== undefined) values.expected_result = args.expected_result;
    if (args.category !== undefined) values.category = args.category.trim();
    if (args.priority !== undefined) values.priority = normalizePriority(args.priority);
    if (args.status !== undefined) values.status = normalizeStatus(args.status);
    if (typeof args.steps === 'string') {
      values.detailed_instructions = args.steps;
      stepsUpdate = 'stored_as_detailed_instructions';
    } else if (args.steps !== undefined) {
      values.steps = JSON.stringify(parseSteps(args.steps));
      stepsUpdate = 'replaced_structured_steps';
    }
    const row = await this.storage.write(async (em) => {
      const current = await this.cases.requireRow(ctx.caller, test_case_id, em);
      const { version, now } = this.cases.stamp();
      const ok = await this.storage.guardedUpdate(em, TestCaseRow, current.id, current.version, { ...values, updated_at: now }, version);
      if (!ok) throw conflict(`test case ${test_case_id} changed while it was being updated`, 'Read it again with get_test_case and retry.');
      return (await em.findOne(TestCaseRow, { where: { id: current.id } }))!;
    });
    return {
      ...toRecord(row),
      updated_fields: given,
      ...(stepsUpdate
        ? {
            steps_update: stepsUpdate,
            note:
              stepsUpdate === 'replaced_structured_steps'
                ? 'The structured steps (read by automation) were replaced.'
                : 'The text was stored as free-text detailed_instructions; the structured steps were not changed and no generator reads this text as steps. Pass an array of {step, expected} to change the steps.',
          }
        : {}),
    };
  }

  @Tool({
    name: 'delete_test_case',
    description: 'Delete a test case. Requires ownership of its project.',
    input: z.object({ test_case_id: id }),
    annotations: { readOnlyHint: false, destructiveHint: true },
  })
  async delete(args: { test_case_id: number }, ctx: ToolContext) {
    return this.storage.write(async (em) => {
      const row = await this.cases.requireRow(ctx.caller, args.test_case_id, em);
      await this.projects.requireProject(ctx.caller, row.project_id);
      await this.relations.unlink(em, row.id);
      await em.delete(TestCaseRow, { id: row.id });
      return { deleted: true, test_case_id: row.id, project_id: row.project_id };
    });
  }

  @Tool({
    name: 'list_test_cases',
    description: "List a project's test cases (compact).",
    input: z.object({
      project_id: id,
      ...paging,
    }),
    annotations: { readOnlyHint: true },
  })
  async list(args: { project_id: number; limit: number; offset: number }, ctx: ToolContext) {
    await this.projects.requireProject(ctx.caller, args.project_id);
    const [rows, total] = await this.storage.repo(TestCaseRow).findAndCount({
      where: { project_id: args.project_id },
      select: { id: true, title: true, priority: true, category: true, status: true, tags: true, version: true, steps: true },
      order: { id: 'ASC' },
      take: args.limit,
      skip: args.offset,
    });
    return page(rows.map(toSummary), total, args.limit, args.offset);
  }

  @Tool({
    name: 'search_test_cases',
    description: 'Full-text search over title, description and tags, best match first.',
    input: z.object({
      project_id: id,
      query: line(200),
      category: text(100).optional(),
      status: text(20).optional(),
      limit: z.number().int().min(1).max(100).default(20),
    }),
    annotations: { readOnlyHint: true },
  })
  async search(args: { project_id: number; query: string; category?: string; status?: string; limit: number }, ctx: ToolContext) {
    const status = args.status === undefined ? undefined : normalizeStatus(args.status);
    const terms = queryTerms(args.query);
    if (terms.length === 0) throw invalidArgument('query has no words to search for', 'Use letters or digits, e.g. "login error".');
    await this.projects.requireProject(ctx.caller, args.project_id);
    const filters: Array<{ sql: string; value: unknown }> = [];
    if (args.category?.trim()) filters.push({ sql: 'LOWER(t.category) = ?', value: args.category.trim().toLowerCase() });
    if (status) filters.push({ sql: 't.status = ?', value: status });
    const { rows, mode } = await rankedSearch(this.storage, {
      table: 'projects_test_cases',
      columns: ['title', 'tags', 'description'],
      weights: [10, 5, 2],
      projectId: args.project_id,
      terms,
      filters,
      select: ['id', 'title', 'priority', 'category', 'status', 'tags', 'version', 'steps'],
      limit: args.limit,
    });
    return {
      items: rows.map((r) => ({ ...toSummary(r as never), score: Number(Number(r.score).toPrecision(4)) })),
      matched: mode === 'all' ? 'all_terms' : 'any_term',
      terms,
    };
  }
}
