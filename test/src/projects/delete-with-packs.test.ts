import { expect } from 'chai';
import { onEachBackend, startTestHost, type TestHost } from '@testkeeper/kernel/testing';
import { sql } from './fakes.js';
import { createProject, expectToolError } from './helpers.js';

/** Rows of `table` that belong to the project, straight from the database. */
async function rowsOf(host: TestHost, table: string, projectId: number): Promise<number> {
  const rows = (await sql(host, host.kernel.storage.manager, `SELECT COUNT(*) AS n FROM ${table} WHERE project_id = ?`, [projectId])) as Array<{ n: string | number }>;
  return Number(rows[0].n);
}

onEachBackend(describe, before, 'projects: summary and delete with the real packs', (backend) => {
  let host: TestHost;
  before(async () => {
    host = await startTestHost({ storage: backend });
  });
  after(async () => host?.close());

  it('counts test cases and scripts in the summary and deletes them with the project', async () => {
    const doomed = await createProject(host, { name: 'Doomed Project' });
    const kept = await createProject(host, { name: 'Kept Project' });
    const makeContent = async (projectId: number) => {
      const tc = await host.ok('create_test_case', { project_id: projectId, title: 'Login works', steps: [{ step: 'Open /login', expected: 'Form shows' }] });
      await host.ok('create_script', { project_id: projectId, test_case_id: tc.id, name: 'login.spec', framework: 'pytest', code: 'def test_login():\n    assert True\n' });
    };
    await makeContent(doomed.project_id);
    await makeContent(kept.project_id);

    const summary = await host.ok('get_project_summary', { project_id: doomed.project_id });
    expect(summary.statistics).to.include({ test_cases: 1, scripts: 1, executions: 0 });
    expect(summary.last_activity >= doomed.updated_at).to.equal(true);

    const res = await host.ok('delete_project', { project_id: doomed.project_id });
    expect(res).to.include({ deleted: true, project_id: doomed.project_id });
    expect(await rowsOf(host, 'projects_test_cases', doomed.project_id)).to.equal(0);
    expect(await rowsOf(host, 'scripts_scripts', doomed.project_id)).to.equal(0);
    await expectToolError(host, 'get_project_summary', { project_id: doomed.project_id }, 'not_found');

    // The other project and its content are untouched.
    expect(await rowsOf(host, 'projects_test_cases', kept.project_id)).to.equal(1);
    expect(await rowsOf(host, 'scripts_scripts', kept.project_id)).to.equal(1);
    const keptSummary = await host.ok('get_project_summary', { project_id: kept.project_id, fields: ['statistics'] });
    expect(keptSummary.statistics).to.include({ test_cases: 1, scripts: 1 });
  });
});
