import { expect } from 'chai';
import { onEachBackend, startTestHost, type TestClient, type TestHost } from '@testkeeper/kernel/testing';
import { countRows, expectError, newProject } from './helpers.js';

onEachBackend(describe, before, 'test cases: create, get, update, delete, list', (backend) => {
  let host: TestHost;
  let bob: TestClient;
  let projectId: number;
  before(async () => {
    host = await startTestHost({ storage: backend });
    bob = await host.clientFor('bob');
    projectId = await newProject(host, 'Shop');
  });
  after(async () => host?.close());

  const create = (args: Record<string, unknown>) => host.ok('create_test_case', { project_id: projectId, ...args });

  describe('create_test_case', () => {
    it('stores given steps, normalized priority and tags, status draft and a version', async () => {
      const tc = await create({
        title: 'Add address',
        description: 'A user adds a shipping address',
        steps: [{ step: 'Open "Addresses"', expected: 'The list is shown' }, { step: 'Tap Save', resource_id: 'com.shop:id/save' }],
        priority: 2,
        category: 'Account',
        tags: ['Smoke', 'smoke', ' address '],
      });
      expect(tc).to.include({ title: 'Add address', priority: 'high', category: 'Account', status: 'draft', project_id: projectId, steps_generated: false });
      expect(tc.tags).to.deep.equal(['smoke', 'address']);
      expect(tc.steps).to.deep.equal([{ step: 'Open "Addresses"', expected: 'The list is shown' }, { step: 'Tap Save', resource_id: 'com.shop:id/save' }]);
      expect(tc.version).to.be.a('string').and.not.empty;
      expect(tc).not.to.have.property('engine');
    });

    it('normalizes every accepted priority form', async () => {
      const cases: Array<[unknown, string]> = [[1, 'critical'], [2, 'high'], [3, 'medium'], [4, 'low'], [5, 'low'], ['CRITICAL', 'critical'], [' Low ', 'low'], ['3', 'medium']];
      for (const [given, stored] of cases) {
        const tc = await create({ title: `prio ${String(given)}`, steps: [{ step: 'x' }], priority: given });
        expect(tc.priority, `priority ${JSON.stringify(given)}`).to.equal(stored);
      }
      const dflt = await create({ title: 'no priority', steps: [{ step: 'x' }] });
      expect(dflt.priority).to.equal('medium');
    });

    it('rejects other priorities with the accepted forms and writes nothing', async () => {
      const before = await countRows(host, 'projects_test_cases');
      for (const bad of [0, 6, 2.5, -1, 'urgent', '', 'p1']) {
        const err = await expectError(host, 'create_test_case', { project_id: projectId, title: 'bad prio', priority: bad }, 'invalid_argument');
        expect(err.message).to.match(/priority/);
        expect(err.hint).to.match(/1-5/).and.match(/critical, high, medium, low/);
      }
      expect(await countRows(host, 'projects_test_cases')).to.equal(before);
    });

    it('generates detailed steps with expectations when none are given, and says which engine did', async () => {
      const tc = await create({ title: 'User logs in with valid credentials', description: 'A registered user signs in from the login page.' });
      expect(tc.steps_generated).to.equal(true);
      expect(tc.engine).to.equal('deterministic');
      expect(tc.steps.length).to.be.greaterThanOrEqual(3);
      expect(tc.steps.every((s: { step: string; expected?: string }) => s.step && s.expected)).to.equal(true);
      expect(tc.steps.map((s: { step: string }) => s.step).join(' ')).to.match(/login page/i).and.match(/Log in/);
      expect(tc.preconditions).to.match(/registered user/i);
    });

    it('does not generate steps when auto_generate_steps is false', async () => {
      const tc = await create({ title: 'Manual only', description: 'Open the page. Click save.', auto_generate_steps: false });
      expect(tc.steps).to.deep.equal([]);
      expect(tc.steps_generated).to.equal(false);
    });

    it('rejects bad input with invalid_argument and writes nothing', async () => {
      const before = await countRows(host, 'projects_test_cases');
      const bad: Array<Record<string, unknown>> = [
        { project_id: projectId },
        { project_id: projectId, title: '   ' },
        { project_id: projectId, title: 'x'.repeat(501) },
        { project_id: 'one', title: 'x' },
        { project_id: projectId, title: 'x', steps: [{ expected: 'no step' }] },
        { project_id: projectId, title: 'x', steps: 'Open the page' },
        { project_id: projectId, title: 'x', steps: [{ step: 'a', extra: 1 }] },
        { project_id: projectId, title: 'x', tags: 'smoke' },
      ];
      for (const args of bad) await expectError(host, 'create_test_case', args, 'invalid_argument');
      expect(await countRows(host, 'projects_test_cases')).to.equal(before);
    });

    it("reports another user's project exactly like a missing one", async () => {
      const foreign = await expectError(bob, 'create_test_case', { project_id: projectId, title: 'sneaky', steps: [{ step: 'x' }] }, 'not_found');
      const missing = await expectError(host, 'create_test_case', { project_id: 999_999, title: 'x', steps: [{ step: 'x' }] }, 'not_found');
      expect(foreign.message).to.equal(`project ${projectId} was not found`);
      expect(missing.message).to.equal('project 999999 was not found');
      expect(foreign.hint).to.equal(missing.hint);
    });
  });

  describe('get_test_case', () => {
    it('returns the record, only the named fields, or not_modified for a matching version', async () => {
      const tc = await create({ title: 'Get me', description: 'd', steps: [{ step: 'a', expected: 'b' }], priority: 'low' });
      const full = await host.ok('get_test_case', { test_case_id: tc.id });
      expect(full).to.include({ id: tc.id, title: 'Get me', priority: 'low', version: tc.version, detailed_instructions: '' });
      const some = await host.ok('get_test_case', { test_case_id: tc.id, fields: ['title', 'version'] });
      expect(some).to.deep.equal({ title: 'Get me', version: tc.version });
      const same = await host.ok('get_test_case', { test_case_id: tc.id, if_version_matches: tc.version });
      expect(same).to.deep.equal({ not_modified: true, version: tc.version });
      const stale = await host.ok('get_test_case', { test_case_id: tc.id, if_version_matches: 'old-version' });
      expect(stale.title).to.equal('Get me');
      await expectError(host, 'get_test_case', { test_case_id: tc.id, fields: ['code'] }, 'invalid_argument');
      await expectError(host, 'get_test_case', { test_case_id: 0 }, 'invalid_argument');
    });

    it("answers another user's test case exactly like a missing one", async () => {
      const tc = await create({ title: 'Private', steps: [{ step: 'a' }] });
      const foreign = await expectError(bob, 'get_test_case', { test_case_id: tc.id }, 'not_found');
      expect(foreign.message).to.equal(`test case ${tc.id} was not found`);
      const missing = await expectError(host, 'get_test_case', { test_case_id: 987_654 }, 'not_found');
      expect(missing.message).to.equal('test case 987654 was not found');
      expect(foreign.hint).to.equal(missing.hint);
    });
  });

  describe('related objects (TestCaseRelations)', () => {
    it("includes the scripts pack's linked scripts in get_test_case, not in a fields subset", async () => {
      const tc = await create({ title: 'Linked', steps: [{ step: 'a' }] });
      expect((await host.ok('get_test_case', { test_case_id: tc.id })).scripts).to.deep.equal([]);
      const script = await host.ok('create_script', { project_id: projectId, test_case_id: tc.id, name: 'linked.spec.ts', framework: 'browser', code: "test('x', async () => {});" });
      const full = await host.ok('get_test_case', { test_case_id: tc.id });
      expect(full.scripts).to.have.length(1);
      expect(full.scripts[0]).to.include({ id: script.id ?? script.script_id, name: 'linked.spec.ts', framework: 'browser' });
      const some = await host.ok('get_test_case', { test_case_id: tc.id, fields: ['id'] });
      expect(some).to.deep.equal({ id: tc.id });
    });
  });

  describe('update_test_case', () => {
    it('replaces structured steps from an array, with mobile selectors, and changes the version', async () => {
      const tc = await create({ title: 'Steps', steps: [{ step: 'old' }] });
      const steps = [
        { step: 'Tap "Sign in"', expected: 'The login screen opens' },
        { step: 'Tap the submit button', expected: 'Signed in', resource_id: 'com.app:id/submit' },
      ];
      const up = await host.ok('update_test_case', { test_case_id: tc.id, steps });
      expect(up.steps).to.deep.equal(steps);
      expect(up.steps_update).to.equal('replaced_structured_steps');
      expect(up.version).not.to.equal(tc.version);
      const again = await host.ok('get_test_case', { test_case_id: tc.id, fields: ['steps'] });
      expect(again.steps).to.deep.equal(steps);
    });

    it('stores a plain string as detailed_instructions and leaves the steps alone', async () => {
      const tc = await create({ title: 'Free text', steps: [{ step: 'keep me', expected: 'kept' }] });
      const up = await host.ok('update_test_case', { test_case_id: tc.id, steps: '1. Open the app\n2. Tap login' });
      expect(up.steps_update).to.equal('stored_as_detailed_instructions');
      expect(up.note).to.match(/detailed_instructions/);
      expect(up.detailed_instructions).to.equal('1. Open the app\n2. Tap login');
      expect(up.steps).to.deep.equal([{ step: 'keep me', expected: 'kept' }]);
    });

    it('updates scalar fields, normalizes priority and status, and reports what changed', async () => {
      const tc = await create({ title: 'Scalars', steps: [{ step: 'a' }] });
      const up = await host.ok('update_test_case', { test_case_id: tc.id, title: 'Scalars 2', priority: 1, status: 'Ready', expected_result: 'All good', category: 'Smoke' });
      expect(up).to.include({ title: 'Scalars 2', priority: 'critical', status: 'ready', expected_result: 'All good', category: 'Smoke' });
      expect(up.updated_fields).to.have.members(['title', 'priority', 'status', 'expected_result', 'category']);
      expect(up).not.to.have.property('steps_update');
    });

    it('rejects bad values, an empty update and unknown statuses without writing', async () => {
      const tc = await create({ title: 'Guarded', steps: [{ step: 'a' }] });
      const bad: Array<[Record<string, unknown>, RegExp]> = [
        [{}, /Nothing to update/],
        [{ status: 'archived' }, /status/],
        [{ priority: 9 }, /priority/],
        [{ steps: [{ step: '' }] }, /steps\.0\.step/],
        [{ steps: [{ expected: 'x' }] }, /steps\.0\.step/],
        [{ steps: 42 }, /steps/],
        [{ title: 'ok', status: 'archived' }, /status/],
      ];
      for (const [args, msg] of bad) {
        const err = await expectError(host, 'update_test_case', { test_case_id: tc.id, ...args }, 'invalid_argument');
        expect(err.message).to.match(msg);
      }
      const err = await expectError(host, 'update_test_case', { test_case_id: tc.id, status: 'archived' }, 'invalid_argument');
      expect(err.hint).to.equal('Use one of draft, ready, active, deprecated.');
      const now = await host.ok('get_test_case', { test_case_id: tc.id });
      expect(now).to.include({ title: 'Guarded', version: tc.version, status: 'draft' });
    });

    it("cannot touch another user's test case", async () => {
      const tc = await create({ title: 'Mine', steps: [{ step: 'a' }] });
      const err = await expectError(bob, 'update_test_case', { test_case_id: tc.id, title: 'Hijacked' }, 'not_found');
      expect(err.message).to.equal(`test case ${tc.id} was not found`);
      expect((await host.ok('get_test_case', { test_case_id: tc.id })).title).to.equal('Mine');
    });
  });

  describe('delete_test_case and list_test_cases', () => {
    it('deletes only with ownership; the case then disappears from get and list', async () => {
      const tc = await create({ title: 'Doomed', steps: [{ step: 'a' }] });
      await expectError(bob, 'delete_test_case', { test_case_id: tc.id }, 'not_found');
      expect((await host.ok('get_test_case', { test_case_id: tc.id })).id).to.equal(tc.id);
      const res = await host.ok('delete_test_case', { test_case_id: tc.id });
      expect(res).to.deep.equal({ deleted: true, test_case_id: tc.id, project_id: projectId });
      await expectError(host, 'get_test_case', { test_case_id: tc.id }, 'not_found');
      await expectError(host, 'delete_test_case', { test_case_id: tc.id }, 'not_found');
      const list = await host.ok('list_test_cases', { project_id: projectId, limit: 100 });
      expect(list.items.map((i: { id: number }) => i.id)).not.to.include(tc.id);
    });

    it('pages through a project with next_offset and hides other projects', async () => {
      const other = await newProject(host, 'Other shop');
      const ids: number[] = [];
      for (let i = 0; i < 5; i++) ids.push((await host.ok('create_test_case', { project_id: other, title: `case ${i}`, steps: [{ step: 's' }, { step: 't' }] })).id);
      const p1 = await host.ok('list_test_cases', { project_id: other, limit: 2 });
      expect(p1).to.include({ total: 5, next_offset: 2 });
      expect(p1.items[0]).to.deep.include({ id: ids[0], title: 'case 0', steps_count: 2, status: 'draft' });
      const p3 = await host.ok('list_test_cases', { project_id: other, limit: 2, offset: 4 });
      expect(p3.items.map((i: { id: number }) => i.id)).to.deep.equal([ids[4]]);
      expect(p3.next_offset).to.equal(null);
      await expectError(bob, 'list_test_cases', { project_id: other }, 'not_found');
      await expectError(host, 'list_test_cases', { project_id: other, limit: 101 }, 'invalid_argument');
    });
  });

  describe('project statistics and cleanup', () => {
    it('counts test cases in get_project_summary and deletes them with the project', async () => {
      const pid = await newProject(host, 'Short lived');
      for (const t of ['one', 'two', 'three']) await host.ok('create_test_case', { project_id: pid, title: t, steps: [{ step: 'x' }] });
      const summary = await host.ok('get_project_summary', { project_id: pid });
      expect(summary.statistics.test_cases).to.equal(3);
      expect(await countRows(host, 'projects_test_cases', 'project_id = ?', [pid])).to.equal(3);
      await host.ok('delete_project', { project_id: pid });
      expect(await countRows(host, 'projects_test_cases', 'project_id = ?', [pid])).to.equal(0);
    });
  });
});
