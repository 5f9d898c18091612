import { createHash } from 'node:crypto';

/** Project facts that may appear in instructions: nothing else from the project is ever emitted. */
export interface ProjectFacts {
  project_id: number;
  name: string;
  key: string;
  project_type: string;
  main_url: string | null;
  test_case_count: number;
  categories: string[];
  memory_entries: number;
}

export const WORKFLOWS = {
  preview: 'Test a change on its preview or staging deployment before it merges',
  regression: "Run the project's existing tests against a deployment and triage failures",
  new_feature: 'Write test cases and scripts for a new feature, then run them on a deployment',
} as const;
export type Workflow = keyof typeof WORKFLOWS;

const STEPS: Record<Workflow, string[]> = {
  preview: [
    'Ask the user for the exact preview/staging URL of the change under test (never guess one and never use the production URL unless told to).',
    'Call `get_project_memory` with `project_id` and a `query` describing the change, to reuse earlier learnings.',
    'Call `search_test_cases` for the areas the change touches; pick the affected test cases.',
    'Call `list_scripts` for those test cases and run them with `run_tests`, passing the deployment as `base_url`.',
    'For a failure, read it with `get_execution`; fix test defects with `apply_patch_and_run` (same `base_url`) and keep assertions when the evidence points to an application defect.',
    'Record anything the next agent should know with `record_project_learning`.',
  ],
  regression: [
    'Ask the user which deployment to test and use that URL as `base_url`.',
    'Call `get_project_memory` with `project_id` to learn about flaky areas and known issues.',
    'Call `list_test_cases` and `list_scripts` to see what exists; run the scripts with `run_tests` and `base_url`.',
    'Poll `get_execution` for asynchronous runs; report passed/failed per script with the failure reasons.',
    'Record new learnings with `record_project_learning`.',
  ],
  new_feature: [
    'Call `get_project_memory` and `search_test_cases` to avoid duplicating existing coverage.',
    'Create test cases with `create_test_case` (steps are generated when you give none) and refine them with `enhance_test_case`.',
    'Generate or write scripts for them, then run them with `run_tests` against the deployment the user names, as `base_url`.',
    'Record what you learned with `record_project_learning`.',
  ],
};

function factLines(f: ProjectFacts): string[] {
  return [
    `- Project: ${f.name} (id ${f.project_id}, key ${f.key}, type ${f.project_type})`,
    ...(f.main_url ? [`- Main URL on record: ${f.main_url} (a reference, not the deployment to test)`] : []),
    `- Test cases: ${f.test_case_count}${f.categories.length ? ` in ${f.categories.join(', ')}` : ''}`,
    `- Memory entries: ${f.memory_entries}`,
  ];
}

function body(f: ProjectFacts, workflow: Workflow): string {
  return [
    `Goal: ${WORKFLOWS[workflow]}.`,
    '',
    'Saved project facts:',
    ...factLines(f),
    '',
    'Steps:',
    ...STEPS[workflow].map((s, i) => `${i + 1}. ${s}`),
    '',
    'Rules:',
    '- The deployment under test is always given explicitly with `run_tests.base_url`; these instructions select no deployment and change no settings.',
    '- Use `auth_profile_id` for logins; never paste credentials into prompts or scripts.',
  ].join('\n');
}

/**
 * A copyable prompt and an installable skill file for one workflow. Built only from the allowlisted
 * facts, so the revision (a content hash) changes exactly when the text changes.
 */
export function buildAgentInstructions(f: ProjectFacts, workflow: Workflow) {
  const text = body(f, workflow);
  const prompt = `You are testing the project "${f.name}" with the Testkeeper MCP tools.\n\n${text}\n`;
  const slug = `testkeeper-${f.key.toLowerCase()}-${workflow.replace(/_/g, '-')}`;
  const description = `${WORKFLOWS[workflow]} for project ${f.name} (Testkeeper project ${f.project_id}).`;
  const skill = `---\nname: ${slug}\ndescription: ${JSON.stringify(description)}\n---\n\n# ${f.name}: ${workflow.replace(/_/g, ' ')} testing\n\n${text}\n`;
  const revision = createHash('sha256').update(prompt).update('\u0000').update(skill).digest('hex').slice(0, 16);
  return {
    workflow,
    revision,
    prompt,
    skill_file: { path: `skills/${slug}/SKILL.md`, content: skill },
    facts: f,
    note: 'These instructions select no deployment and change no settings: the deployment under test is given with run_tests.base_url.',
  };
}
