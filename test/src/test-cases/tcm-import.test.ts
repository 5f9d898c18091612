import { expect } from 'chai';
import { onEachBackend, startTestHost, type TestClient, type TestHost } from '@testkeeper/kernel/testing';
import { TestRailFake } from '../fakes/testrail-fake.js';
import { countRows, expectError, newProject, sql } from './helpers.js';

const USER = 'qa@acme.test';
const KEY = 'tr-key-Zx81kQ7Lm2';

function seed(fake: TestRailFake) {
  fake.projects.set(1, [
    {
      id: 10,
      name: 'Smoke',
      cases: [
        {
          id: 101,
          title: 'Log in with a valid account',
          priority_id: 4,
          refs: 'RF-1, RF-2',
          custom_preconds: 'A user exists',
          custom_steps_separated: [
            { content: 'Open /login', expected: 'The form is shown' },
            { content: 'Submit valid credentials', expected: 'The dashboard opens' },
          ],
        },
        { id: 102, title: 'Log out', priority_id: 2, refs: null, custom_steps: '1. Open the menu\n2. Click Log out', custom_expected: 'The login page is shown' },
        { id: 103, title: 'Old removed case', priority_id: 1, is_deleted: 1 },
      ],
    },
    {
      id: 11,
      name: 'Regression',
      cases: [
        { id: 201, title: 'Export CSV', priority_id: 3, custom_steps_separated: [{ content: 'Click Export', expected: 'A file downloads' }] },
        { id: 202, title: 'Import CSV', priority_id: 1, custom_steps_separated: null, custom_steps: null },
        { id: 203, title: 'Bulk delete', priority_id: 9 },
        { id: 204, title: 'Archive project', priority_id: 2, custom_preconds: null },
      ],
    },
  ]);
  fake.projects.set(7, [{ id: 70, name: 'Master', cases: [{ id: 701, title: 'Single suite case', priority_id: 3 }] }]);
}

onEachBackend(describe, before, 'test cases: save_tcm_credentials and import_from_tcm (TestRail fake)', (backend) => {
  let host: TestHost;
  let bob: TestClient;
  let fake: TestRailFake;
  let projectId: number;
  before(async () => {
    fake = await new TestRailFake(USER, KEY).start();
    seed(fake);
    host = await startTestHost({ storage: backend });
    bob = await host.clientFor('bob');
    projectId = await newProject(host, 'TestRail import');
  });
  after(async () => {
    await host?.close();
    await fake?.stop();
  });
  beforeEach(() => {
    fake.listShape = 'enveloped';
    fake.pageSize = 250;
    fake.rateLimitNext = 0;
  });

  const save = (pid = projectId, extra: Record<string, unknown> = {}) =>
    host.ok('save_tcm_credentials', { project_id: pid, base_url: fake.url + '/', username: USER, api_key: KEY, ...extra });

  it('refuses to import before credentials are saved', async () => {
    const err = await expectError(host, 'import_from_tcm', { project_id: projectId, tcm_project_id: 1 }, 'invalid_argument');
    expect(err.hint).to.match(/save_tcm_credentials/);
  });

  it('saves credentials encrypted and never returns the key', async () => {
    const res = await save();
    expect(res).to.deep.equal({ saved: true, project_id: projectId, tcm: 'testrail', base_url: fake.url, username: USER });
    expect(JSON.stringify(res)).not.to.include(KEY);
    const rows = await sql(host, 'SELECT sealed FROM kernel_secrets WHERE key = ?', [`tcm:project:${projectId}`]);
    expect(rows).to.have.length(1);
    expect(String(rows[0]!.sealed)).to.match(/^v1:/).and.not.include(KEY).and.not.include(USER);
  });

  it('rejects bad credentials input and foreign projects, storing nothing', async () => {
    const pid = await newProject(host, 'No creds');
    await expectError(host, 'save_tcm_credentials', { project_id: pid, base_url: 'not a url', username: USER, api_key: KEY }, 'invalid_argument');
    await expectError(host, 'save_tcm_credentials', { project_id: pid, base_url: 'ftp://x.example', username: USER, api_key: KEY }, 'invalid_argument');
    await expectError(host, 'save_tcm_credentials', { project_id: pid, base_url: fake.url, username: '', api_key: KEY }, 'invalid_argument');
    const unknown = await expectError(host, 'save_tcm_credentials', { project_id: pid, base_url: fake.url, username: USER, api_key: KEY, tcm: 'zephyr' }, 'invalid_argument');
    expect(unknown.hint).to.equal('Use one of: testrail.');
    await expectError(bob, 'save_tcm_credentials', { project_id: pid, base_url: fake.url, username: USER, api_key: KEY }, 'not_found');
    expect(await countRows(host, 'kernel_secrets', 'key = ?', [`tcm:project:${pid}`])).to.equal(0);
  });

  it('imports every suite across pages, mapping steps, priorities, preconditions and refs', async () => {
    fake.pageSize = 2;
    const before = fake.requests.length;
    const res = await host.ok('import_from_tcm', { project_id: projectId, tcm_project_id: 1 });
    expect(res).to.include({ tcm: 'testrail', tcm_project_id: 1, fetched: 6, unchanged: 0 });
    expect(res.suites).to.deep.equal([{ id: 10, name: 'Smoke' }, { id: 11, name: 'Regression' }]);
    expect(res.created.map((c: { title: string }) => c.title)).to.deep.equal(['Log in with a valid account', 'Log out', 'Export CSV', 'Import CSV', 'Bulk delete', 'Archive project']);
    const sent = fake.requests.slice(before);
    expect(sent.every((r) => r.headers.authorization === 'Basic ' + Buffer.from(`${USER}:${KEY}`).toString('base64'))).to.equal(true);
    const regressionPages = sent.filter((r) => r.url.includes('get_cases/1&suite_id=11'));
    expect(regressionPages.map((r) => r.url.split('index.php?')[1])).to.deep.equal([
      '/api/v2/get_cases/1&suite_id=11&limit=250&offset=0',
      '/api/v2/get_cases/1&suite_id=11&limit=2&offset=2',
    ]);

    const login = await host.ok('get_test_case', { test_case_id: res.created[0].id });
    expect(login).to.include({ priority: 'critical', category: 'Smoke', preconditions: 'A user exists', source_name: 'testrail:1' });
    expect(login.steps).to.deep.equal([
      { step: 'Open /login', expected: 'The form is shown' },
      { step: 'Submit valid credentials', expected: 'The dashboard opens' },
    ]);
    expect(login.tags).to.deep.equal(['testrail', 'rf-1', 'rf-2']);
    const logout = await host.ok('get_test_case', { test_case_id: res.created[1].id });
    expect(logout.priority).to.equal('medium');
    expect(logout.steps).to.deep.equal([{ step: 'Open the menu' }, { step: 'Click Log out', expected: 'The login page is shown' }]);
    const prios = await Promise.all(res.created.slice(2).map((c: { id: number }) => host.ok('get_test_case', { test_case_id: c.id, fields: ['priority'] })));
    expect(prios.map((p) => p.priority)).to.deep.equal(['high', 'low', 'medium', 'medium']);
  });

  it('updates on re-import instead of duplicating', async () => {
    const before = await countRows(host, 'projects_test_cases', 'project_id = ?', [projectId]);
    const same = await host.ok('import_from_tcm', { project_id: projectId, tcm_project_id: 1 });
    expect(same).to.include({ unchanged: 6 });
    expect(same.created).to.deep.equal([]);
    expect(same.updated).to.deep.equal([]);
    const suite = fake.projects.get(1)![1]!;
    suite.cases[0] = { ...suite.cases[0], title: 'Export CSV with filters', priority_id: 4 };
    const changed = await host.ok('import_from_tcm', { project_id: projectId, tcm_project_id: 1 });
    expect(changed.updated).to.have.length(1);
    expect(changed.updated[0].title).to.equal('Export CSV with filters');
    const tc = await host.ok('get_test_case', { test_case_id: changed.updated[0].id });
    expect(tc).to.include({ title: 'Export CSV with filters', priority: 'critical' });
    expect(await countRows(host, 'projects_test_cases', 'project_id = ?', [projectId])).to.equal(before);
  });

  it('imports one suite when tcm_suite_id is given, and reads bare-array servers', async () => {
    const pid = await newProject(host, 'Suite only');
    await save(pid);
    fake.listShape = 'bare';
    const res = await host.ok('import_from_tcm', { project_id: pid, tcm_project_id: 1, tcm_suite_id: 11 });
    expect(res.suites).to.deep.equal([{ id: 11, name: 'Regression' }]);
    expect(res.created.map((c: { title: string }) => c.title)).to.deep.equal(['Export CSV with filters', 'Import CSV', 'Bulk delete', 'Archive project']);
  });

  it('waits out a 429 for the Retry-After seconds and then succeeds', async () => {
    const pid = await newProject(host, 'Rate limited');
    await save(pid);
    fake.rateLimitNext = 1;
    fake.retryAfter = 1;
    const t0 = Date.now();
    const res = await host.ok('import_from_tcm', { project_id: pid, tcm_project_id: 7 });
    expect(Date.now() - t0).to.be.at.least(950);
    expect(res.created.map((c: { title: string }) => c.title)).to.deep.equal(['Single suite case']);
  });

  it('reports TestRail errors clearly, without the key, and writes nothing', async () => {
    const pid = await newProject(host, 'Bad key');
    await save(pid, { api_key: 'tr-wrong-key-00000' });
    const before = await countRows(host, 'projects_test_cases');
    const auth = await expectError(host, 'import_from_tcm', { project_id: pid, tcm_project_id: 1 }, 'upstream_error');
    expect(auth.message).to.match(/rejected the saved credentials/);
    expect(JSON.stringify(auth)).not.to.include('tr-wrong-key');
    const badProject = await expectError(host, 'import_from_tcm', { project_id: projectId, tcm_project_id: 99 }, 'invalid_argument');
    expect(badProject.message).to.equal('TestRail: Field :project_id is not a valid or accessible project.');
    await expectError(host, 'import_from_tcm', { project_id: projectId, tcm_project_id: 0 }, 'invalid_argument');
    await expectError(bob, 'import_from_tcm', { project_id: projectId, tcm_project_id: 1 }, 'not_found');
    expect(await countRows(host, 'projects_test_cases')).to.equal(before);
  });

  it('asks to save credentials again when the stored value cannot be decrypted', async () => {
    const pid = await newProject(host, 'Damaged creds');
    await save(pid);
    await sql(host, 'UPDATE kernel_secrets SET sealed = ? WHERE key = ?', ['v1:AAAAAAAAAAAAAAAA:AAAAAAAAAAAAAAAAAAAAAA==:AAAA', `tcm:project:${pid}`]);
    const err = await expectError(host, 'import_from_tcm', { project_id: pid, tcm_project_id: 1 }, 'invalid_argument');
    expect(err.message).to.match(/cannot be read/);
    expect(err.hint).to.match(/save_tcm_credentials/);
  });

  it('deletes the saved credentials with the project', async () => {
    const pid = await newProject(host, 'Goes away');
    await save(pid);
    expect(await countRows(host, 'kernel_secrets', 'key = ?', [`tcm:project:${pid}`])).to.equal(1);
    await host.ok('delete_project', { project_id: pid });
    expect(await countRows(host, 'kernel_secrets', 'key = ?', [`tcm:project:${pid}`])).to.equal(0);
  });
});
