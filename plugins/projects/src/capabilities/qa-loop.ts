/**
 * The autonomous QA loop as the tools to call, in order. The run step names the tool that runs the
 * recommended framework.
 */
export function qaLoop(projectId: number, runTool: string | null, testCaseId?: number) {
  const tc = testCaseId ?? '<test_case_id>';
  return [
    { step: 1, tool: 'get_test_capabilities', arguments: { project_id: projectId }, why: 'what can run here (this answer)' },
    { step: 2, tool: 'get_project_agent_instructions', arguments: { project_id: projectId }, why: 'how to test this project’s preview/staging deployments' },
    { step: 3, tool: 'get_project_memory', arguments: { project_id: projectId }, why: 'learnings and verified runs from earlier sessions' },
    { step: 4, tool: 'list_test_cases', arguments: { project_id: projectId }, why: 'pick or create (create_test_case) the case to automate' },
    { step: 5, tool: 'generate_code_for_test_case', arguments: { test_case_id: tc }, why: 'then poll check_generation_status; or save your own code with create_script' },
    { step: 6, tool: 'add_script_to_framework', arguments: { script_id: '<script_id>' }, why: 'put the script into the project’s runnable framework' },
    { step: 7, tool: runTool ?? 'run_tests', arguments: { base_url: '<deployment URL>' }, why: 'run it against the exact deployment' },
    { step: 8, tool: 'get_execution', arguments: { execution_id: '<execution_id>' }, why: 'status, per-test results and the receipt' },
    { step: 9, tool: 'apply_patch_and_run', arguments: { script_id: '<script_id>', patch: '[...]' }, why: 'fix test defects; keep assertions when the evidence shows an application defect' },
    { step: 10, tool: 'trigger_framework_run', arguments: { project_id: projectId }, why: 'run the whole framework as a regression check' },
  ];
}
