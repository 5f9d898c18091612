import { expect } from 'chai';
import { onEachBackend, startTestHost, type TestHost } from '@testkeeper/kernel/testing';
import { countProjects, createProject, expectToolError, storedProject } from './helpers.js';

onEachBackend(describe, before, 'projects: project tools', (backend) => {
  let host: TestHost;
  before(async () => {
    host = await startTestHost({ storage: backend });
  });
  after(async () => host?.close());

  describe('create_project', () => {
    it('creates a web project with derived key and slug and returns it', async () => {
      const p = await host.ok('create_project', { name: 'Checkout Web App', description: 'Shop checkout', main_url: 'https://checkout.example.com/start' });
      expect(p).to.include({ name: 'Checkout Web App', key: 'CWA', slug: 'checkout-web-app', project_type: 'web', description: 'Shop checkout' });
      expect(p.main_url).to.equal('https://checkout.example.com/start');
      expect(p.project_id).to.be.a('number');
      expect(p.test_frameworks).to.deep.equal({});
      expect(p.version).to.be.a('string').and.not.empty;
      expect(Date.parse(p.created_at)).to.be.closeTo(Date.now(), 60_000);
      const list = await host.ok('list_projects', {});
      expect(list.items.map((i: { project_id: number }) => i.project_id)).to.include(p.project_id);
    });

    it('accepts project_type native_mobile and an explicit key, upper-casing it', async () => {
      const p = await createProject(host, { name: 'Field Service Mobile', key: 'fsm1', project_type: 'native_mobile' });
      expect(p).to.include({ key: 'FSM1', project_type: 'native_mobile', main_url: null, description: '' });
    });

    it('derives a unique key and slug when the name repeats (force_create)', async () => {
      const a = await createProject(host, { name: 'Storefront' });
      const b = await createProject(host, { name: 'Storefront' });
      const c = await createProject(host, { name: 'Storefront' });
      expect([a.key, b.key, c.key]).to.deep.equal(['STOREFRONT', 'STOREFRON2', 'STOREFRON3']);
      expect([a.slug, b.slug, c.slug]).to.deep.equal(['storefront', 'storefront-2', 'storefront-3']);
    });

    it('gives concurrent creates of the same name distinct keys and slugs', async () => {
      const made = await Promise.all(Array.from({ length: 5 }, () => createProject(host, { name: 'Parallel Launch' })));
      expect(new Set(made.map((p) => p.key))).to.deep.equal(new Set(['PL', 'PL2', 'PL3', 'PL4', 'PL5']));
      expect(new Set(made.map((p) => p.slug)).size).to.equal(5);
    });

    it('rejects a duplicate explicit key with conflict and writes nothing', async () => {
      await createProject(host, { name: 'Billing Portal', key: 'BILL' });
      const before = await countProjects(host);
      const err = await expectToolError(host, 'create_project', { name: 'Invoices', key: 'bill', force_create: true }, 'conflict');
      expect(err.message).to.match(/key "BILL" is already used by your project "Billing Portal"/);
      expect(err.hint).to.match(/omit key/);
      expect(await countProjects(host)).to.equal(before);
    });

    it('rejects bad input with invalid_argument and writes nothing', async () => {
      const before = await countProjects(host);
      const cases: Array<[Record<string, unknown>, RegExp]> = [
        [{}, /name/],
        [{ name: '   ' }, /name/],
        [{ name: 'x'.repeat(201) }, /name/],
        [{ name: 'Keys', key: 'TOO-LONG-KEY' }, /12 characters; the maximum is 10/],
        [{ name: 'Keys', key: 'AB-C' }, /only letters A-Z and digits/],
        [{ name: 'Keys', key: '' }, /key must not be empty/],
        [{ name: 'Urls', main_url: 'ftp://files.example.com' }, /main_url: must be an http\(s\) URL/],
        [{ name: 'Urls', main_url: 'not a url' }, /main_url: must be an http\(s\) URL/],
        [{ name: 'Urls', main_url: `https://example.com/${'a'.repeat(2000)}` }, /main_url: must be an http\(s\) URL of at most 2000 characters/],
        [{ name: 'Long', description: 'd'.repeat(10_001) }, /description: must be at most 10000 characters/],
        [{ name: 'Type', project_type: 'desktop' }, /project_type/],
        [{ name: 'Force', force_create: 'yes' }, /force_create/],
      ];
      for (const [args, message] of cases) {
        const err = await expectToolError(host, 'create_project', args, 'invalid_argument');
        expect(err.message, JSON.stringify(args)).to.match(message);
      }
      expect(await countProjects(host)).to.equal(before);
    });
  });

  describe('update_project', () => {
    it('updates fields, changes version and updated_at, and keeps key and slug', async () => {
      const p = await createProject(host, { name: 'Partner Portal', main_url: 'https://partners.example.com' });
      await new Promise((r) => setTimeout(r, 5));
      const u = await host.ok('update_project', { project_id: p.project_id, name: 'Partner Hub', description: 'B2B' });
      expect(u).to.include({ project_id: p.project_id, name: 'Partner Hub', description: 'B2B', key: p.key, slug: p.slug, main_url: 'https://partners.example.com' });
      expect(u.version).to.not.equal(p.version);
      expect(u.updated_at > p.updated_at).to.equal(true);
      const row = await storedProject(host, p.project_id);
      expect(row).to.include({ name: 'Partner Hub', name_normalized: 'partner hub', version: u.version });
      const cleared = await host.ok('update_project', { project_id: p.project_id, main_url: '' });
      expect(cleared.main_url).to.equal(null);
    });

    it('rejects an empty update and bad fields, writing nothing', async () => {
      const p = await createProject(host, { name: 'Unchanged Project' });
      const empty = await expectToolError(host, 'update_project', { project_id: p.project_id }, 'invalid_argument');
      expect(empty.hint).to.match(/at least one of name, description, main_url/);
      await expectToolError(host, 'update_project', { project_id: p.project_id, main_url: 'javascript:alert(1)' }, 'invalid_argument');
      await expectToolError(host, 'update_project', { project_id: p.project_id, name: '' }, 'invalid_argument');
      await expectToolError(host, 'update_project', { project_id: p.project_id, main_url: null }, 'invalid_argument');
      await expectToolError(host, 'update_project', { project_id: 'one', name: 'X' }, 'invalid_argument');
      await expectToolError(host, 'update_project', { project_id: 987654, name: 'X' }, 'not_found');
      const row = await storedProject(host, p.project_id);
      expect(row).to.include({ name: 'Unchanged Project', version: p.version });
    });
  });

  describe('delete_project', () => {
    it('deletes the project and reports what was deleted', async () => {
      const p = await createProject(host, { name: 'Short Lived' });
      const before = await countProjects(host);
      const res = await host.ok('delete_project', { project_id: p.project_id });
      expect(res).to.deep.include({ deleted: true, project_id: p.project_id, name: 'Short Lived', key: p.key });
      expect(res.removed).to.be.an('object');
      expect(await countProjects(host)).to.equal(before - 1);
      expect(await storedProject(host, p.project_id)).to.equal(undefined);
      await expectToolError(host, 'delete_project', { project_id: p.project_id }, 'not_found');
    });

    it('rejects bad ids, deleting nothing', async () => {
      const before = await countProjects(host);
      await expectToolError(host, 'delete_project', {}, 'invalid_argument');
      await expectToolError(host, 'delete_project', { project_id: -3 }, 'invalid_argument');
      await expectToolError(host, 'delete_project', { project_id: 1.5 }, 'invalid_argument');
      await expectToolError(host, 'delete_project', { project_id: 424242 }, 'not_found');
      expect(await countProjects(host)).to.equal(before);
    });
  });

  describe('get_project_summary', () => {
    it('returns project, statistics and last_activity when fields is omitted', async () => {
      const p = await createProject(host, { name: 'Summary Target', main_url: 'https://summary.example.com' });
      const s = await host.ok('get_project_summary', { project_id: p.project_id });
      expect(s.project_id).to.equal(p.project_id);
      expect(s.project).to.deep.include({ project_id: p.project_id, name: 'Summary Target', key: p.key, slug: p.slug, version: p.version });
      expect(s.statistics).to.include({ test_cases: 0, scripts: 0, executions: 0 });
      expect(s.last_activity).to.equal(p.updated_at);
    });

    it('returns only the requested fields', async () => {
      const p = await createProject(host, { name: 'Summary Fields' });
      const onlyStats = await host.ok('get_project_summary', { project_id: p.project_id, fields: ['statistics'] });
      expect(Object.keys(onlyStats).sort()).to.deep.equal(['project_id', 'statistics']);
      const two = await host.ok('get_project_summary', { project_id: p.project_id, fields: ['project', 'last_activity'] });
      expect(Object.keys(two).sort()).to.deep.equal(['last_activity', 'project', 'project_id']);
    });

    it('follows updates in last_activity', async () => {
      const p = await createProject(host, { name: 'Activity Tracking' });
      await new Promise((r) => setTimeout(r, 5));
      const u = await host.ok('update_project', { project_id: p.project_id, description: 'touched' });
      const s = await host.ok('get_project_summary', { project_id: p.project_id, fields: ['last_activity'] });
      expect(s.last_activity).to.equal(u.updated_at);
      expect(s.last_activity > p.updated_at).to.equal(true);
    });

    it('rejects unknown fields and bad ids', async () => {
      const p = await createProject(host, { name: 'Summary Errors' });
      const err = await expectToolError(host, 'get_project_summary', { project_id: p.project_id, fields: ['owner'] }, 'invalid_argument');
      expect(err.message).to.match(/fields/);
      await expectToolError(host, 'get_project_summary', {}, 'invalid_argument');
      await expectToolError(host, 'get_project_summary', { project_id: 555555 }, 'not_found');
    });
  });
});
