import { expect } from 'chai';
import { onEachBackend, startTestHost, type TestClient, type TestHost } from '@testkeeper/kernel/testing';
import { expectToolError, storedProject } from './helpers.js';

onEachBackend(describe, before, 'projects: one user cannot reach another user\'s project', (backend) => {
  let host: TestHost;
  let bob: TestClient;
  let project: { project_id: number; version: string };
  const missingId = 9_999_999;
  before(async () => {
    host = await startTestHost({ storage: backend });
    bob = await host.clientFor('bob');
    project = await host.ok('create_project', { name: 'Alice Private', description: 'secret plans' });
  });
  after(async () => host?.close());

  /** Bob's error for Alice's project equals his error for an id that does not exist, except for the id. */
  async function expectSameAsMissing(tool: string, extra: Record<string, unknown>) {
    const foreign = await expectToolError(bob, tool, { project_id: project.project_id, ...extra }, 'not_found');
    const missing = await expectToolError(bob, tool, { project_id: missingId, ...extra }, 'not_found');
    expect(foreign).to.deep.equal(JSON.parse(JSON.stringify(missing).replaceAll(String(missingId), String(project.project_id))));
    expect(JSON.stringify(foreign)).to.not.contain('Alice');
  }

  it('list_projects shows bob none of alice\'s projects', async () => {
    expect((await bob.ok('list_projects', {})).items).to.deep.equal([]);
  });

  it('update_project, delete_project, get_project_summary and gates answer not_found like a missing id', async () => {
    await expectSameAsMissing('get_project_summary', {});
    await expectSameAsMissing('update_project', { name: 'Taken Over' });
    await expectSameAsMissing('update_project_pipeline_gates', { gates: { _pipeline_run_tests: false } });
    await expectSameAsMissing('delete_project', {});
  });

  it('leaves alice\'s project untouched', async () => {
    const row = await storedProject(host, project.project_id);
    expect(row).to.include({ name: 'Alice Private', description: 'secret plans', version: project.version, test_frameworks: '{}' });
    const mine = await host.ok('get_project_summary', { project_id: project.project_id, fields: ['project'] });
    expect(mine.project.name).to.equal('Alice Private');
  });
});
