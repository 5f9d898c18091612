import { expect } from 'chai';
import { onEachBackend, startTestHost, type TestClient, type TestHost } from '@testkeeper/kernel/testing';
import { expectError, newProject } from './helpers.js';

onEachBackend(describe, before, 'test cases: search_test_cases (full-text index)', (backend) => {
  let host: TestHost;
  let bob: TestClient;
  let projectId: number;
  let otherProject: number;
  const ids: Record<string, number> = {};
  before(async () => {
    host = await startTestHost({ storage: backend });
    bob = await host.clientFor('bob');
    projectId = await newProject(host, 'Search shop');
    otherProject = await newProject(host, 'Search elsewhere');
    const add = async (key: string, args: Record<string, unknown>, pid = projectId) => {
      ids[key] = (await host.ok('create_test_case', { project_id: pid, steps: [{ step: 'x' }], ...args })).id;
    };
    await add('titleHit', { title: 'Password reset email', description: 'The user receives a link', category: 'Auth' });
    await add('descHit', { title: 'Account settings', description: 'Change the password from the settings page', category: 'Account' });
    await add('tagHit', { title: 'Profile photo upload', description: 'Upload a picture', tags: ['password-policy'], category: 'Account' });
    await add('both', { title: 'Checkout with saved card', description: 'Pay with a stored credit card', category: 'Payments' });
    await add('stemmed', { title: 'Searching orders', description: 'Orders are searched by number', category: 'Orders' });
    await add('elsewhere', { title: 'Password reset elsewhere', description: 'password password' }, otherProject);
  });
  after(async () => host?.close());

  const search = (args: Record<string, unknown>) => host.ok('search_test_cases', { project_id: projectId, ...args });

  it('finds matches in title, description and tags, ranking title matches first', async () => {
    const res = await search({ query: 'password' });
    const found = res.items.map((i: { id: number }) => i.id);
    expect(found).to.have.members([ids.titleHit, ids.descHit, ids.tagHit]);
    expect(found[0]).to.equal(ids.titleHit);
    expect(res.items[0].score).to.be.greaterThan(res.items[2].score);
    expect(res.matched).to.equal('all_terms');
    expect(res.items[0]).to.include.keys('id', 'title', 'priority', 'category', 'status', 'tags', 'steps_count', 'version', 'score');
  });

  it('never returns another project\'s cases', async () => {
    const res = await search({ query: 'password reset' });
    expect(res.items.map((i: { id: number }) => i.id)).to.deep.equal([ids.titleHit]);
    const other = await host.ok('search_test_cases', { project_id: otherProject, query: 'password' });
    expect(other.items.map((i: { id: number }) => i.id)).to.deep.equal([ids.elsewhere]);
  });

  it('stems words (searching → search) and ignores case and punctuation', async () => {
    const res = await search({ query: 'SEARCH order!' });
    expect(res.items.map((i: { id: number }) => i.id)).to.deep.equal([ids.stemmed]);
  });

  it('falls back to any term when no case has all of them', async () => {
    const res = await search({ query: 'card zebra' });
    expect(res.matched).to.equal('any_term');
    expect(res.items.map((i: { id: number }) => i.id)).to.deep.equal([ids.both]);
  });

  it('filters by category and status', async () => {
    const byCat = await search({ query: 'password', category: 'account' });
    expect(byCat.items.map((i: { id: number }) => i.id)).to.have.members([ids.descHit, ids.tagHit]);
    await host.ok('update_test_case', { test_case_id: ids.descHit, status: 'active' });
    const byStatus = await search({ query: 'password', status: 'active' });
    expect(byStatus.items.map((i: { id: number }) => i.id)).to.deep.equal([ids.descHit]);
    const none = await search({ query: 'password', status: 'deprecated' });
    expect(none.items).to.deep.equal([]);
  });

  it('follows updates and deletes (the index is kept in step)', async () => {
    const tc = await host.ok('create_test_case', { project_id: projectId, title: 'Wishlist sharing', steps: [{ step: 'x' }] });
    expect((await search({ query: 'wishlist' })).items).to.have.length(1);
    await host.ok('update_test_case', { test_case_id: tc.id, title: 'Favourites sharing' });
    expect((await search({ query: 'wishlist' })).items).to.have.length(0);
    expect((await search({ query: 'favourites' })).items).to.have.length(1);
    await host.ok('delete_test_case', { test_case_id: tc.id });
    expect((await search({ query: 'favourites' })).items).to.have.length(0);
  });

  it('treats query syntax as plain words', async () => {
    for (const q of ['password OR "', 'NEAR(password', 'password*', "pass' ; DROP TABLE x", 'title:password']) {
      const res = await search({ query: q });
      expect(res.items, q).to.be.an('array');
    }
  });

  it('respects limit and rejects bad input', async () => {
    expect((await search({ query: 'password', limit: 1 })).items).to.have.length(1);
    await expectError(host, 'search_test_cases', { project_id: projectId, query: '' }, 'invalid_argument');
    await expectError(host, 'search_test_cases', { project_id: projectId, query: '!!!' }, 'invalid_argument');
    await expectError(host, 'search_test_cases', { project_id: projectId, query: 'x', status: 'gone' }, 'invalid_argument');
    await expectError(host, 'search_test_cases', { project_id: projectId, query: 'x', limit: 0 }, 'invalid_argument');
    await expectError(host, 'search_test_cases', { project_id: projectId }, 'invalid_argument');
  });

  it("does not search another user's project", async () => {
    const err = await expectError(bob, 'search_test_cases', { project_id: projectId, query: 'password' }, 'not_found');
    expect(err.message).to.equal(`project ${projectId} was not found`);
  });
});
