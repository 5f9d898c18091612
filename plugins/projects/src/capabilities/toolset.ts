import { inject, notFound, positiveId, Tokens, Tool, Toolset, z, type TestCaseReader, type TestCaseView, type ToolContext } from '@testkeeper/kernel';
import { ProjectStore } from '../services/project-store.js';
import { qaLoop } from './qa-loop.js';
import { recommend } from './recommend.js';
import { CapabilitySources } from './sources.js';

@Toolset({ id: 'capabilities', title: 'Capabilities', description: 'What this server can generate and run for a project' })
export class CapabilitiesToolset {
  constructor(
    private readonly sources: CapabilitySources,
    @inject(ProjectStore) private readonly store: ProjectStore,
    @inject(Tokens.TestCases) private readonly testCases: TestCaseReader,
  ) {}

  @Tool({
    name: 'get_test_capabilities',
    description: 'Call first: frameworks, engines, runners and a recommended QA loop for a project.',
    input: z.object({ project_id: positiveId, test_case_id: positiveId.optional() }),
    annotations: { readOnlyHint: true },
  })
  async getTestCapabilities(args: { project_id: number; test_case_id?: number }, ctx: ToolContext) {
    const project = await this.store.requireOwned(ctx.caller, args.project_id);
    let testCase: TestCaseView | null = null;
    if (args.test_case_id !== undefined) {
      testCase = await this.testCases.requireTestCase(ctx.caller, args.test_case_id);
      // A test case of another project of the caller is still "not in this project".
      if (testCase.project_id !== project.id) throw notFound('test case', args.test_case_id);
    }
    const frameworks = await this.sources.frameworks();
    const available = (tool: string) => frameworks.filter((f) => f.available && f.run_tool === tool).map((f) => f.framework);
    const runnable = frameworks.filter((f) => f.available).map((f) => f.framework);
    const best = recommend(project, testCase, frameworks);
    return {
      project: { project_id: project.id, name: project.name, project_type: project.project_type, main_url: project.main_url },
      ...(testCase ? { test_case: { id: testCase.id, title: testCase.title, category: testCase.category, tags: testCase.tags } } : {}),
      frameworks,
      code_generation: this.sources.codeGeneration(ctx.sampling),
      execution_services: [
        { service: 'native', tool: 'run_native_test', mode: 'synchronous', frameworks: available('run_native_test') },
        { service: 'run_tests', tool: 'run_tests', mode: 'per script', frameworks: available('run_tests') },
        { service: 'framework_run', tool: 'trigger_framework_run', mode: 'background; poll get_execution', frameworks: runnable },
      ],
      recommendation: best,
      qa_loop: qaLoop(project.id, best.run_tool, args.test_case_id),
      preview_testing: {
        tool: 'get_project_agent_instructions',
        arguments: { project_id: project.id },
        note: 'Returns the project’s instructions for testing changing preview/staging URLs; pass the exact deployment as base_url when running.',
      },
    };
  }
}
