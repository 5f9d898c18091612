import { expect } from 'chai';
import { onEachBackend, startTestHost, type TestHost } from '@testkeeper/kernel/testing';
import { createProject, expectToolError, storedProject } from './helpers.js';
import { sql } from '../support/sql.js';

const ALL_DEFAULTS = {
  _pipeline_run_tests: true,
  _pipeline_run_beta: true,
  _pipeline_run_ai_review: false,
  _pipeline_run_sast: false,
  _pipeline_run_sast_verify: true,
  _pipeline_run_sast_fixes: true,
  _pipeline_run_bola: false,
  _pipeline_run_tech_debt: true,
};

/** Writes settings straight into the row, as another pack's settings (model configuration) would be. */
async function seedSettings(host: TestHost, id: number, settings: Record<string, unknown>) {
  await sql(host, 'UPDATE projects_projects SET test_frameworks = ? WHERE id = ?', [JSON.stringify(settings), id]);
}

onEachBackend(describe, before, 'projects: update_project_pipeline_gates', (backend) => {
  let host: TestHost;
  before(async () => {
    host = await startTestHost({ storage: backend });
  });
  after(async () => host?.close());

  it('sets gates, returns all effective gates with defaults, and keeps other settings', async () => {
    const p = await createProject(host, { name: 'Gated Service' });
    await seedSettings(host, p.project_id, { model: { provider: 'local', name: 'small' }, _pipeline_run_beta: false });
    const res = await host.ok('update_project_pipeline_gates', { project_id: p.project_id, gates: { _pipeline_run_sast: true, _pipeline_run_tests: false } });
    expect(res.project_id).to.equal(p.project_id);
    expect(res.gates).to.deep.equal({ ...ALL_DEFAULTS, _pipeline_run_sast: true, _pipeline_run_tests: false, _pipeline_run_beta: false });
    expect(res.version).to.be.a('string').and.not.equal(p.version);
    const stored = JSON.parse(String((await storedProject(host, p.project_id))!.test_frameworks));
    expect(stored).to.deep.equal({ model: { provider: 'local', name: 'small' }, _pipeline_run_beta: false, _pipeline_run_sast: true, _pipeline_run_tests: false });
    const summary = await host.ok('get_project_summary', { project_id: p.project_id, fields: ['project'] });
    expect(summary.project.test_frameworks).to.deep.equal(stored);
  });

  it('reports defaults for a project that never set a gate', async () => {
    const p = await createProject(host, { name: 'Default Gates' });
    const res = await host.ok('update_project_pipeline_gates', { project_id: p.project_id, gates: { _pipeline_run_tech_debt: true } });
    expect(res.gates).to.deep.equal(ALL_DEFAULTS);
  });

  it('rejects an unknown key, listing the allowed keys, and writes nothing', async () => {
    const p = await createProject(host, { name: 'Strict Gates' });
    const err = (await expectToolError(
      host,
      'update_project_pipeline_gates',
      { project_id: p.project_id, gates: { _pipeline_run_tests: false, _pipeline_run_lint: true } },
      'invalid_argument',
    )) as any;
    expect(err.message).to.contain('unknown gate key: _pipeline_run_lint');
    for (const key of Object.keys(ALL_DEFAULTS)) expect(err.message).to.contain(key);
    expect(err.details).to.deep.equal({ unknown: ['_pipeline_run_lint'], allowed: Object.keys(ALL_DEFAULTS) });
    expect(await storedProject(host, p.project_id)).to.include({ test_frameworks: '{}', version: p.version });
  });

  it('rejects non-boolean values, an empty object and a missing project', async () => {
    const p = await createProject(host, { name: 'Typed Gates' });
    const typed = await expectToolError(host, 'update_project_pipeline_gates', { project_id: p.project_id, gates: { _pipeline_run_tests: 'no' } }, 'invalid_argument');
    expect(typed.message).to.contain('gates._pipeline_run_tests');
    await expectToolError(host, 'update_project_pipeline_gates', { project_id: p.project_id, gates: {} }, 'invalid_argument');
    await expectToolError(host, 'update_project_pipeline_gates', { project_id: p.project_id }, 'invalid_argument');
    await expectToolError(host, 'update_project_pipeline_gates', { project_id: 777777, gates: { _pipeline_run_tests: true } }, 'not_found');
    expect(await storedProject(host, p.project_id)).to.include({ test_frameworks: '{}', version: p.version });
  });

  it('keeps every gate when several updates race', async () => {
    const p = await createProject(host, { name: 'Racing Gates' });
    const updates = [
      { _pipeline_run_tests: false },
      { _pipeline_run_beta: false },
      { _pipeline_run_ai_review: true },
      { _pipeline_run_sast: true },
      { _pipeline_run_bola: true },
      { _pipeline_run_tech_debt: false },
    ];
    await Promise.all(updates.map((gates) => host.ok('update_project_pipeline_gates', { project_id: p.project_id, gates })));
    const stored = JSON.parse(String((await storedProject(host, p.project_id))!.test_frameworks));
    expect(stored).to.deep.equal(Object.assign({}, ...updates));
  });
});
