import { expect } from 'chai';
import { startTestHost } from '@testkeeper/kernel/testing';

describe('models.providers names are checked at boot', () => {
  it('stops boot with unknown_extension and lists the known providers', async () => {
    let error: Error | undefined;
    try {
      const host = await startTestHost({ config: { models: { providers: ['mcp_sampling', 'open_ai_compatible'] } } });
      await host.close();
    } catch (err) {
      error = err as Error;
    }
    expect(error, 'boot should fail').to.be.instanceOf(Error);
    expect(error!.message).to.match(/\[unknown_extension\]/);
    expect(error!.message).to.include('"open_ai_compatible"');
    expect(error!.message).to.include('known: mcp_sampling, openai_compatible');
  });

  it('boots with the built-in names even when no endpoint is configured', async () => {
    const host = await startTestHost({ config: { models: { providers: ['openai_compatible', 'mcp_sampling'] } } });
    try {
      expect((await host.client.listTools()).tools.length).to.be.greaterThan(0);
    } finally {
      await host.close();
    }
  });
});
