import { expect } from 'chai';
import { onEachBackend, startTestHost, type TestHost } from '@testkeeper/kernel/testing';
import { countProjects, expectToolError } from './helpers.js';

onEachBackend(describe, before, 'projects: create_project similar-project check', (backend) => {
  let host: TestHost;
  let shop: { project_id: number; key: string; name: string };
  before(async () => {
    host = await startTestHost({ storage: backend });
    shop = await host.ok('create_project', { name: 'Acme Shop Front', main_url: 'https://www.acme-shop.example/home' });
  });
  after(async () => host?.close());

  async function expectConfirmation(args: Record<string, unknown>, reason: string) {
    const before = await countProjects(host);
    const err = (await expectToolError(host, 'create_project', args, 'needs_confirmation')) as any;
    expect(err.details.similar).to.deep.equal([{ id: shop.project_id, name: 'Acme Shop Front', key: shop.key, reason }]);
    expect(err.message).to.contain('Nothing was created');
    expect(err.hint).to.contain('force_create: true');
    expect(await countProjects(host)).to.equal(before);
  }

  it('asks for confirmation for the same name after normalization', async () => {
    await expectConfirmation({ name: '  acme shop-front!! ' }, 'same_name');
    await expectConfirmation({ name: 'ACME SHOPFRONT' }, 'same_name');
  });

  it('asks for confirmation for a close fuzzy match', async () => {
    await expectConfirmation({ name: 'Acme Shop Frnt' }, 'similar_name');
    await expectConfirmation({ name: 'Front Shop Acme Portal' }, 'shared_words');
  });

  it('asks for confirmation for the same main_url host', async () => {
    await expectConfirmation({ name: 'Marketing Site', main_url: 'https://acme-shop.example/landing' }, 'same_host');
  });

  it('creates a dissimilar project without asking', async () => {
    const p = await host.ok('create_project', { name: 'Warehouse Scanner', main_url: 'https://scanner.example' });
    expect(p.name).to.equal('Warehouse Scanner');
  });

  it('creates a similar project when force_create is true', async () => {
    const before = await countProjects(host);
    const p = await host.ok('create_project', { name: 'Acme Shop Front', force_create: true });
    expect(p).to.include({ name: 'Acme Shop Front', key: 'ASF2', slug: 'acme-shop-front-2' });
    expect(await countProjects(host)).to.equal(before + 1);
  });

  it("ignores other users' projects", async () => {
    const bob = await host.clientFor('bob');
    const p = await bob.ok('create_project', { name: 'Acme Shop Front', main_url: 'https://acme-shop.example' });
    expect(p).to.include({ key: 'ASF', slug: 'acme-shop-front' });
  });
});
