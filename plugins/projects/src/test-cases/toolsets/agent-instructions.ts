import { inject, positiveId, Tokens, Tool, Toolset, z, type StorageService, type ToolContext } from '@testkeeper/kernel';
import { ProjectStore } from '../../services/project-store.js';
import { TestCaseRow } from '../entities/test-case.js';
import { buildAgentInstructions, WORKFLOWS, type Workflow } from '../engines/agent-instructions.js';
import { ProjectMemoryService } from '../services/memory-service.js';

const NAMES = Object.keys(WORKFLOWS) as Workflow[];

@Toolset({ id: 'agent_instructions', title: 'Agent instructions', description: 'Project-specific prompts and skill files for testing agents' })
export class AgentInstructionsToolset {
  constructor(
    @inject(Tokens.Storage) private readonly storage: StorageService,
    @inject(ProjectStore) private readonly store: ProjectStore,
    @inject(ProjectMemoryService) private readonly memory: ProjectMemoryService,
  ) {}

  @Tool({
    name: 'get_project_agent_instructions',
    description: 'Prompt and skill file for testing this project; pass the deployment as run_tests.base_url.',
    input: z.object({
      project_id: positiveId,
      workflow: z.enum(NAMES as [Workflow, ...Workflow[]]).default('preview'),
    }),
    annotations: { readOnlyHint: true },
  })
  async get(args: { project_id: number; workflow: Workflow }, ctx: ToolContext) {
    const workflow = args.workflow;
    const project = await this.store.requireOwned(ctx.caller, args.project_id);
    const rows = (await this.storage
      .repo(TestCaseRow)
      .createQueryBuilder('t')
      .select('t.category', 'category')
      .addSelect('COUNT(*)', 'n')
      .where('t.project_id = :id', { id: project.id })
      .groupBy('t.category')
      .getRawMany()) as Array<{ category: string; n: string | number }>;
    const categories = rows
      .filter((r) => r.category)
      .sort((a, b) => Number(b.n) - Number(a.n) || a.category.localeCompare(b.category))
      .slice(0, 10)
      .map((r) => r.category);
    return buildAgentInstructions(
      {
        project_id: project.id,
        name: project.name,
        key: project.key,
        project_type: project.project_type,
        main_url: project.main_url,
        test_case_count: rows.reduce((n, r) => n + Number(r.n), 0),
        categories,
        memory_entries: await this.memory.count(project.id),
      },
      workflow,
    );
  }
}
