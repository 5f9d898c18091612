import { expect } from 'chai';
import { startTestHost, type TestHost } from '@testkeeper/kernel/testing';

describe('smoke: kernel boots with the projects pack', () => {
  let host: TestHost;
  before(async () => {
    host = await startTestHost({ storage: (process.env.TK_BACKEND as 'sqlite' | 'postgres') ?? 'sqlite' });
  });
  after(async () => host?.close());

  it('lists list_projects and answers it', async () => {
    const { tools } = await host.client.listTools();
    expect(tools.map((t) => t.name)).to.include('list_projects');
    const res = await host.ok('list_projects', {});
    expect(res).to.deep.include({ items: [], total: 0, next_offset: null });
  });

  it('rejects bad arguments with invalid_argument', async () => {
    const res = await host.call('list_projects', { limit: 0 });
    expect(res.success).to.equal(false);
    expect(res.error?.code).to.equal('invalid_argument');
    expect(res.error?.message).to.match(/limit/);
  });
});
