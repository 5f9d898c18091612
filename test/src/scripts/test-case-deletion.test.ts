import { expect } from 'chai';
import { onEachBackend, startTestHost, type TestHost } from '@testkeeper/kernel/testing';
import { newProject, newScript } from './helpers.js';

onEachBackend(describe, before, 'deleting a test case unlinks its scripts and drops its proposals', (backend) => {
  let host: TestHost;
  before(async () => {
    host = await startTestHost({ storage: backend });
  });
  after(async () => host?.close());

  it('keeps the script without the link (new version) and removes pending tests made from it', async () => {
    const projectId = await newProject(host);
    const tc = await host.ok('create_test_case', {
      project_id: projectId,
      title: 'Open the home page',
      steps: [{ step: 'Go to "/"', expected: 'The page title contains "Home"' }],
    });
    const script = await newScript(host, projectId, { test_case_id: tc.id });
    const proposed = await host.ok('generate_code_for_test_case', { test_case_id: tc.id, mode: 'propose', wait_seconds: 20 });
    expect(proposed.status).to.equal('completed');
    expect((await host.ok('list_pending_tests', { project_id: projectId })).items).to.have.length(1);

    await host.ok('delete_test_case', { test_case_id: tc.id });

    const after = await host.ok('get_script', { script_id: script.id });
    expect(after.test_case_id).to.equal(null);
    expect(after.version).to.not.equal(script.version);
    expect(after.code).to.equal(script.code);
    expect((await host.ok('list_pending_tests', { project_id: projectId })).items).to.have.length(0);
    expect((await host.ok('list_scripts', { project_id: projectId, test_case_id: tc.id })).items).to.have.length(0);
  });
});
