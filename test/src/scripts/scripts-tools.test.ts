import { expect } from 'chai';
import { onEachBackend, startTestHost, type TestClient, type TestHost } from '@testkeeper/kernel/testing';
import { newProject, newScript, PY_SCRIPT, TS_SCRIPT } from './helpers.js';

onEachBackend(describe, before, 'scripts tools', (backend) => {
  let host: TestHost;
  let bob: TestClient;
  let projectId: number;

  before(async () => {
    host = await startTestHost({ storage: backend });
    bob = await host.clientFor('bob');
    projectId = await newProject(host);
  });
  after(async () => host?.close());

  describe('create_script', () => {
    it('creates a script with a version and returns the record', async () => {
      const s = await newScript(host, projectId);
      expect(s).to.include({ name: 'Home page', framework: 'browser', project_id: projectId, test_case_id: null, code: TS_SCRIPT });
      expect(s.id).to.be.a('number');
      expect(s.version).to.be.a('string').and.not.empty;
      expect(s.created_at).to.match(/^\d{4}-\d\d-\d\dT/);
    });

    it('rejects an unknown framework and lists the known ones', async () => {
      const res = await host.call('create_script', { project_id: projectId, name: 'x', framework: 'jest', code: 'x' });
      expect(res.error?.code).to.equal('invalid_argument');
      expect(res.error?.message).to.contain('jest');
      expect(res.error?.hint).to.contain('browser, pytest, rust_cargo, go_test');
    });

    it('rejects bad input with invalid_argument', async () => {
      const bad: Array<Record<string, unknown>> = [
        {},
        { project_id: projectId, name: 'x', framework: 'browser' },
        { project_id: projectId, name: '', framework: 'browser', code: 'x' },
        { project_id: projectId, name: '   ', framework: 'browser', code: 'x' },
        { project_id: projectId, name: 'a\u0000b', framework: 'browser', code: 'x' },
        { project_id: projectId, name: 'x', framework: 'browser', code: '' },
        { project_id: -1, name: 'x', framework: 'browser', code: 'x' },
        { project_id: '1', name: 'x', framework: 'browser', code: 'x' },
        { project_id: projectId, name: 'x', framework: 'browser', code: 'x'.repeat(600 * 1024) },
        { project_id: projectId, test_case_id: 0, name: 'x', framework: 'browser', code: 'x' },
      ];
      for (const args of bad) {
        const res = await host.call('create_script', args);
        expect(res.error?.code, JSON.stringify(args).slice(0, 80)).to.equal('invalid_argument');
      }
    });

    it('links a test case of the same project; others are rejected or not found', async () => {
      const tc = await host.ok('create_test_case', { project_id: projectId, title: 'Linked', steps: [{ step: 'Go to /' }], auto_generate_steps: false });
      const s = await newScript(host, projectId, { test_case_id: tc.id });
      expect(s.test_case_id).to.equal(tc.id);
      const other = await newProject(host);
      const wrong = await host.call('create_script', { project_id: other, test_case_id: tc.id, name: 'x', framework: 'browser', code: 'x' });
      expect(wrong.error?.code).to.equal('invalid_argument');
      expect(wrong.error?.message).to.contain('another project');
      const bobProject = await newProject(bob);
      const foreign = await bob.call('create_script', { project_id: bobProject, test_case_id: tc.id, name: 'x', framework: 'browser', code: 'x' });
      const missing = await bob.call('create_script', { project_id: bobProject, test_case_id: 987654, name: 'x', framework: 'browser', code: 'x' });
      expect(foreign.error).to.deep.include({ code: 'not_found', message: `test case ${tc.id} was not found` });
      expect(missing.error).to.deep.include({ code: 'not_found', message: 'test case 987654 was not found' });
    });

    it("gives bob not_found for alice's project, same as a missing one", async () => {
      const foreign = await bob.call('create_script', { project_id: projectId, name: 'x', framework: 'browser', code: 'x' });
      const missing = await bob.call('create_script', { project_id: 999999, name: 'x', framework: 'browser', code: 'x' });
      expect(foreign.error?.code).to.equal('not_found');
      expect(foreign.error?.message).to.equal(`project ${projectId} was not found`);
      expect(missing.error?.message).to.equal('project 999999 was not found');
    });
  });

  describe('list_scripts', () => {
    let otherProject: number;
    before(async () => {
      otherProject = await newProject(host);
      for (let i = 0; i < 5; i++) await newScript(host, otherProject, { name: `s${i}` });
    });

    it('pages with next_offset until null', async () => {
      const names: string[] = [];
      let offset: number | null = 0;
      while (offset !== null) {
        const p: any = await host.ok('list_scripts', { project_id: otherProject, limit: 2, offset });
        names.push(...p.items.map((i: { name: string }) => i.name));
        expect(p.total).to.equal(5);
        offset = p.next_offset;
      }
      expect(names).to.deep.equal(['s0', 's1', 's2', 's3', 's4']);
    });

    it('filters by test_case_id', async () => {
      const p = await host.ok('list_scripts', { project_id: otherProject, test_case_id: 424242 });
      expect(p).to.deep.include({ items: [], total: 0, next_offset: null });
    });

    it('rejects bad paging and hides foreign projects', async () => {
      expect((await host.call('list_scripts', { project_id: otherProject, limit: 101 })).error?.code).to.equal('invalid_argument');
      expect((await host.call('list_scripts', { project_id: otherProject, offset: -1 })).error?.code).to.equal('invalid_argument');
      expect((await host.call('list_scripts', {})).error?.code).to.equal('invalid_argument');
      const res = await bob.call('list_scripts', { project_id: otherProject });
      expect(res.error).to.deep.include({ code: 'not_found', message: `project ${otherProject} was not found` });
    });
  });

  describe('get_script', () => {
    it('returns fields, and not_modified for the current version', async () => {
      const s = await newScript(host, projectId, { framework: 'pytest', code: PY_SCRIPT, name: 'adds' });
      const some = await host.ok('get_script', { script_id: s.id, fields: ['name', 'version'] });
      expect(some).to.deep.equal({ name: 'adds', version: s.version });
      const nm = await host.call('get_script', { script_id: s.id, if_version_matches: s.version });
      expect(nm).to.deep.equal({ success: true, result: { not_modified: true, version: s.version } });
      const full = await host.ok('get_script', { script_id: s.id, if_version_matches: 'old' });
      expect(full.code).to.equal(PY_SCRIPT);
    });

    it('rejects unknown fields and hides foreign scripts', async () => {
      const s = await newScript(host, projectId);
      expect((await host.call('get_script', { script_id: s.id, fields: ['secret'] })).error?.code).to.equal('invalid_argument');
      expect((await host.call('get_script', { script_id: s.id, fields: [] })).error?.code).to.equal('invalid_argument');
      const foreign = await bob.call('get_script', { script_id: s.id });
      const missing = await bob.call('get_script', { script_id: 987654 });
      expect(foreign.error).to.deep.include({ code: 'not_found', message: `script ${s.id} was not found` });
      expect(missing.error).to.deep.include({ code: 'not_found', message: 'script 987654 was not found' });
      expect(foreign.error?.hint).to.equal(missing.error?.hint);
    });
  });

  describe('update_script', () => {
    it('patches with anchored edits and changes the version', async () => {
      const s = await newScript(host, projectId);
      const u = await host.ok('update_script', {
        script_id: s.id,
        expected_version: s.version,
        patch: [
          { old_string: "page.goto('/')", new_string: "page.goto('/login')" },
          { old_string: '/Home/', new_string: '/Login/' },
        ],
      });
      expect(u.code).to.equal(TS_SCRIPT.replace("page.goto('/')", "page.goto('/login')").replace('/Home/', '/Login/'));
      expect(u.version).to.not.equal(s.version);
      expect(u.previous_version).to.equal(s.version);
      expect(u.replacements).to.deep.equal([1, 1]);
    });

    it('rejects a patch with a missing or ambiguous anchor and changes nothing', async () => {
      const s = await newScript(host, projectId);
      const missing = await host.call('update_script', {
        script_id: s.id,
        patch: [
          { old_string: "'/'", new_string: "'/x'" },
          { old_string: 'not there', new_string: 'y' },
        ],
      });
      expect(missing.error?.code).to.equal('invalid_argument');
      expect(missing.error?.message).to.contain('patch[1]').and.contain('not found');
      expect((missing.error as any).details).to.include({ failed_edit: 1, reason: 'not_found' });
      const amb = await host.call('update_script', { script_id: s.id, patch: [{ old_string: 'page', new_string: 'p' }] });
      expect(amb.error?.message).to.contain('patch[0]').and.match(/occurs \d+ times/);
      const after = await host.ok('get_script', { script_id: s.id });
      expect(after).to.include({ code: TS_SCRIPT, version: s.version });
    });

    it('rejects code with patch, an empty update and bad edits', async () => {
      const s = await newScript(host, projectId);
      const both = await host.call('update_script', { script_id: s.id, code: 'x', patch: [{ old_string: 'a', new_string: 'b' }] });
      expect(both.error?.code).to.equal('invalid_argument');
      expect(both.error?.message).to.contain('cannot be combined');
      expect((await host.call('update_script', { script_id: s.id })).error?.message).to.contain('nothing to update');
      for (const p of [[], [{ old_string: '', new_string: 'x' }], [{ old_string: 'a' }], [{ new_string: 'b' }], 'x']) {
        expect((await host.call('update_script', { script_id: s.id, patch: p })).error?.code, JSON.stringify(p)).to.equal('invalid_argument');
      }
    });

    it('rejects a stale expected_version with conflict and the current version', async () => {
      const s = await newScript(host, projectId);
      const u = await host.ok('update_script', { script_id: s.id, name: 'Renamed' });
      const res = await host.call('update_script', { script_id: s.id, code: 'new', expected_version: s.version });
      expect(res.error?.code).to.equal('conflict');
      expect((res.error as any).details).to.deep.equal({ current_version: u.version });
      expect((await host.ok('get_script', { script_id: s.id })).code).to.equal(TS_SCRIPT);
    });

    it("hides another user's script", async () => {
      const s = await newScript(host, projectId);
      const res = await bob.call('update_script', { script_id: s.id, code: 'stolen' });
      expect(res.error).to.deep.include({ code: 'not_found', message: `script ${s.id} was not found` });
    });

    it('lets exactly one of 20 concurrent updates with the same expected_version win', async () => {
      const s = await newScript(host, projectId);
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) => host.call('update_script', { script_id: s.id, code: `// writer ${i}\n`, expected_version: s.version })),
      );
      const winners = results.filter((r) => r.success);
      const losers = results.filter((r) => !r.success);
      expect(winners).to.have.length(1);
      expect(losers.map((r) => r.error?.code)).to.deep.equal(Array(19).fill('conflict'));
      const won = winners[0]!.result as { code: string; version: string };
      const final = await host.ok('get_script', { script_id: s.id });
      expect(final).to.include({ code: won.code, version: won.version });
    });

    it('applies 10 concurrent unguarded patches without losing any', async () => {
      const lines = Array.from({ length: 10 }, (_, i) => `line${i}=old`).join('\n');
      const s = await newScript(host, projectId, { code: lines });
      const results = await Promise.all(
        Array.from({ length: 10 }, (_, i) => host.call('update_script', { script_id: s.id, patch: [{ old_string: `line${i}=old`, new_string: `line${i}=new` }] })),
      );
      expect(results.filter((r) => r.success)).to.have.length(10);
      expect((await host.ok('get_script', { script_id: s.id })).code).to.equal(lines.replaceAll('=old', '=new'));
    });
  });

  describe('delete_script', () => {
    it('deletes, then the id is not found; bob cannot delete', async () => {
      const s = await newScript(host, projectId);
      expect((await bob.call('delete_script', { script_id: s.id })).error?.code).to.equal('not_found');
      expect(await host.ok('delete_script', { script_id: s.id })).to.deep.equal({ deleted: true, script_id: s.id });
      expect((await host.call('get_script', { script_id: s.id })).error?.code).to.equal('not_found');
      expect((await host.call('delete_script', { script_id: s.id })).error?.code).to.equal('not_found');
    });

    it('rejects bad input', async () => {
      for (const args of [{}, { script_id: 'x' }, { script_id: -3 }, { script_id: 1.5 }]) {
        expect((await host.call('delete_script', args)).error?.code, JSON.stringify(args)).to.equal('invalid_argument');
      }
    });
  });
});
