import { execFileSync } from 'node:child_process';
import { expect } from 'chai';
import { startTestHost, type TestClient, type TestHost } from '@testkeeper/kernel/testing';
import { newProject } from './helpers.js';

function toolVersion(cmd: string, args: string[]): string | null {
  try {
    return execFileSync(cmd, args, { encoding: 'utf8' }).trim().split('\n')[0]!;
  } catch {
    return null;
  }
}

describe('get_test_capabilities', function () {
  this.timeout(60_000);
  let host: TestHost;
  let bob: TestClient;
  let projectId: number;

  before(async () => {
    host = await startTestHost();
    bob = await host.clientFor('bob');
    projectId = await newProject(host, 'Caps');
  });
  after(async () => host?.close());

  it('reports every framework with the availability its runner really has', async () => {
    const caps = await host.ok('get_test_capabilities', { project_id: projectId });
    const by = Object.fromEntries(caps.frameworks.map((f: any) => [f.framework, f]));
    expect(Object.keys(by)).to.include.members(['browser', 'pytest', 'rust_cargo', 'go_test']);
    const expected = { rust_cargo: toolVersion('cargo', ['--version']), go_test: toolVersion('go', ['version']), pytest: toolVersion('python3', ['-m', 'pytest', '--version']) };
    for (const [framework, version] of Object.entries(expected)) {
      expect(by[framework].available, framework).to.equal(version !== null);
      if (version) expect(by[framework].version).to.equal(version);
    }
    expect(by.rust_cargo).to.include({ runner: 'cargo', run_tool: 'run_native_test' });
    expect(by.go_test).to.include({ runner: 'go', run_tool: 'run_native_test' });
    expect(by.pytest).to.include({ runner: 'pytest', run_tool: 'run_tests' });
    if (by.browser.runner === null) expect(by.browser).to.include({ available: false, reason: 'no runner for it is installed on this server' });
  });

  it('lists generation engines, execution services, the QA loop and where the preview instructions are', async () => {
    const caps = await host.ok('get_test_capabilities', { project_id: projectId });
    expect(caps.code_generation[0]).to.include({ engine: 'deterministic', available: true });
    const native = caps.execution_services.find((s: any) => s.tool === 'run_native_test');
    expect(native.frameworks).to.deep.equal(caps.frameworks.filter((f: any) => f.available && f.run_tool === 'run_native_test').map((f: any) => f.framework));
    expect(caps.qa_loop.map((s: any) => s.tool)).to.deep.equal([
      'get_test_capabilities',
      'get_project_agent_instructions',
      'get_project_memory',
      'list_test_cases',
      'generate_code_for_test_case',
      'add_script_to_framework',
      caps.recommendation.run_tool,
      'get_execution',
      'apply_patch_and_run',
      'trigger_framework_run',
    ]);
    expect(caps.preview_testing).to.deep.include({ tool: 'get_project_agent_instructions', arguments: { project_id: projectId } });
  });

  it('recommends from the project, and from the test case when one is given', async () => {
    const caps = await host.ok('get_test_capabilities', { project_id: projectId });
    const available = caps.frameworks.filter((f: any) => f.available).map((f: any) => f.framework);
    if (available.includes('browser')) expect(caps.recommendation.framework).to.equal('browser');
    else if (available.includes('pytest')) {
      expect(caps.recommendation.framework).to.equal('pytest');
      expect(caps.recommendation.reason).to.include('browser would fit because this is a web project, but it is not available');
    }
    const tc = await host.ok('create_test_case', { project_id: projectId, title: 'Cart totals in the Rust pricing crate', tags: ['rust'], auto_generate_steps: false });
    const forCase = await host.ok('get_test_capabilities', { project_id: projectId, test_case_id: tc.id ?? tc.test_case_id });
    expect(forCase.test_case.title).to.equal('Cart totals in the Rust pricing crate');
    if (available.includes('rust_cargo')) {
      expect(forCase.recommendation).to.include({ framework: 'rust_cargo', run_tool: 'run_native_test' });
      expect(forCase.recommendation.reason).to.equal('the test case mentions Rust/cargo');
    }
  });

  it("hides another user's project and a test case of another project", async () => {
    const res = await bob.call('get_test_capabilities', { project_id: projectId });
    expect(res.error).to.deep.include({ code: 'not_found', message: `project ${projectId} was not found` });
    const other = await newProject(host, 'Other');
    const tc = await host.ok('create_test_case', { project_id: other, title: 'Elsewhere', auto_generate_steps: false });
    const id = tc.id ?? tc.test_case_id;
    const wrong = await host.call('get_test_capabilities', { project_id: projectId, test_case_id: id });
    expect(wrong.error).to.deep.include({ code: 'not_found', message: `test case ${id} was not found` });
  });
});
