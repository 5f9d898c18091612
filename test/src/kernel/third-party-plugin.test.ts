import { expect } from 'chai';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { startTestHost, type TestClient, type TestHost } from '@testkeeper/kernel/testing';
import { PluginSandbox } from './support/plugin-sandbox.js';

const ACME_TOOLS = ['acme_add_note', 'acme_get_note', 'acme_hello'];

/** Counts `notifications/tools/list_changed` received by one client. */
function listChangedCounter(client: Client): { count: number } {
  const counter = { count: 0 };
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
    counter.count++;
  });
  return counter;
}

/** A round trip on the same connection delivers any notification sent before it; then let handlers run. */
async function settle(...clients: Client[]): Promise<void> {
  for (const c of clients) await c.listTools();
  await new Promise((r) => setTimeout(r, 20));
}

async function toolNames(client: Client): Promise<string[]> {
  return (await client.listTools()).tools.map((t) => t.name).sort();
}

describe('third-party plugin loaded from plugins.paths', function () {
  let sandbox: PluginSandbox;
  let host: TestHost;
  let bob: TestClient;
  let aliceEvents: { count: number };
  let bobEvents: { count: number };
  let acmeDir: string;

  before(async () => {
    sandbox = new PluginSandbox('tk-third-party-');
    acmeDir = sandbox.copyFixture('acme');
    host = await startTestHost({
      config: {
        plugins: { paths: [acmeDir], enabled: ['acme', 'projects'], settings: { acme: { greeting: 'Howdy' } } },
      },
    });
    bob = await host.clientFor('bob');
    aliceEvents = listChangedCounter(host.client);
    bobEvents = listChangedCounter(bob.client);
  });
  after(async () => {
    await host?.close();
    sandbox?.remove();
  });

  it('is discovered outside the workspace, from the configured folder', () => {
    const acme = host.kernel.describePlugins().find((p) => p.id === 'acme');
    expect(acme).to.deep.include({ package: '@acme/testkeeper-plugin', version: '0.3.0', source: 'path', loaded: true, enabled: true });
  });

  it('lists its prefixed tools with their schemas and annotations', async () => {
    const { tools } = await host.client.listTools();
    const names = tools.map((t) => t.name);
    expect(names).to.include.members([...ACME_TOOLS, 'list_projects']);
    const hello = tools.find((t) => t.name === 'acme_hello')!;
    expect(hello.description).to.equal('Greet someone by name.');
    expect(hello.annotations).to.deep.equal({ readOnlyHint: true });
    expect(hello.inputSchema).to.deep.include({ type: 'object', required: ['name'] });
    expect(tools.find((t) => t.name === 'acme_add_note')!.annotations).to.deep.equal({ readOnlyHint: false, destructiveHint: false });
  });

  it('answers calls, with its settings applied in init and the caller passed in', async () => {
    expect(await host.ok('acme_hello', { name: 'Ada' })).to.deep.equal({ message: 'Howdy, Ada!', caller: 'alice' });
    expect(await bob.ok('acme_hello', { name: 'Ada' })).to.deep.equal({ message: 'Howdy, Ada!', caller: 'bob' });
  });

  it('keeps per-user state and reports another user\'s object as missing', async () => {
    const note = await host.ok<{ note_id: number; text: string }>('acme_add_note', { text: 'check login' });
    expect(await host.ok('acme_get_note', { note_id: note.note_id })).to.deep.equal(note);
    const theirs = await bob.call('acme_get_note', { note_id: note.note_id });
    const missing = await bob.call('acme_get_note', { note_id: 999_999 });
    expect(theirs.error?.code).to.equal('not_found');
    expect(theirs.error?.message).to.equal(`Note ${note.note_id} was not found`);
    expect(missing.error?.code).to.equal('not_found');
  });

  it('validates its arguments through the kernel', async () => {
    const res = await host.call('acme_hello', { name: '' });
    expect(res).to.deep.include({ success: false, isError: true });
    expect(res.error?.code).to.equal('invalid_argument');
    expect(res.error?.message).to.match(/^name:/);
  });

  describe('run-time changes send exactly one tools/list_changed each', () => {
    beforeEach(async () => {
      host.kernel.reload(); // back to the boot configuration
      await settle(host.client, bob.client);
      aliceEvents.count = 0;
      bobEvents.count = 0;
    });
    after(() => host.kernel.reload());

    it('disabling the plugin removes its tools; re-enabling brings them back', async () => {
      const change = host.kernel.reload({ plugins: { disabled: ['acme'] } });
      expect(change.off.sort()).to.deep.equal(ACME_TOOLS);
      expect(change.on).to.deep.equal([]);
      await settle(host.client, bob.client);
      expect(aliceEvents.count).to.equal(1);
      expect(bobEvents.count).to.equal(1, 'every connected session is told');
      const names = await toolNames(host.client);
      expect(names).not.to.include.members(['acme_hello']);
      expect(names).to.include('list_projects');
      expect(host.kernel.describePlugins().find((p) => p.id === 'acme')).to.deep.include({ loaded: true, enabled: false });
      // Run-time overrides merge into the boot ones instead of replacing the whole `plugins` block.
      expect(host.kernel.config.plugins).to.deep.include({ paths: [acmeDir], enabled: ['acme', 'projects'], disabled: ['acme'] });
      expect(host.kernel.config.plugins.settings).to.deep.equal({ acme: { greeting: 'Howdy' } });
      // A disabled tool is unknown to the protocol, exactly like a tool that never existed.
      let rejected: unknown;
      await host.raw('acme_hello', { name: 'x' }).catch((e: unknown) => (rejected = e));
      expect(String(rejected)).to.match(/acme_hello not found/);

      const back = host.kernel.reload({ plugins: { disabled: [] } });
      expect(back.on.sort()).to.deep.equal(ACME_TOOLS);
      await settle(host.client, bob.client);
      expect(aliceEvents.count).to.equal(2);
      expect(bobEvents.count).to.equal(2);
      expect(await toolNames(host.client)).to.include.members(ACME_TOOLS);
      // The plugin kept running while switched off: its state survived.
      expect((await host.ok('acme_hello', { name: 'again' })).message).to.equal('Howdy, again!');
    });

    it('a reload that changes nothing sends nothing and keeps the cached listing', async () => {
      const before = host.kernel.registry.listing();
      const change = host.kernel.reload({ tools: { deny: [] } });
      expect(change).to.deep.include({ on: [], off: [] });
      await settle(host.client);
      expect(aliceEvents.count).to.equal(0);
      expect(host.kernel.registry.listing()).to.equal(before);
    });

    it('an invalid reload changes nothing and names the key', async () => {
      const before = host.kernel.registry.listing();
      expect(() => host.kernel.reload({ tools: { readOnly: 'sometimes' } })).to.throw(/config_invalid.*tools\.readOnly/);
      await settle(host.client);
      expect(aliceEvents.count).to.equal(0);
      expect(host.kernel.registry.listing()).to.equal(before);
      expect(host.kernel.config.tools.readOnly).to.equal(false);
    });

    it('toolsets: only the chosen toolsets stay', async () => {
      host.kernel.reload({ tools: { toolsets: ['acme'] } });
      await settle(host.client);
      expect(aliceEvents.count).to.equal(1);
      expect(await toolNames(host.client)).to.deep.equal(ACME_TOOLS);
    });

    it('allow adds a single tool of a switched-off toolset', async () => {
      host.kernel.reload({ tools: { toolsets: ['acme'] } });
      await settle(host.client);
      host.kernel.reload({ tools: { toolsets: ['acme'], allow: ['list_projects'] } });
      await settle(host.client);
      expect(aliceEvents.count).to.equal(2);
      expect(await toolNames(host.client)).to.deep.equal([...ACME_TOOLS, 'list_projects'].sort());
    });

    it('deny removes a tool', async () => {
      host.kernel.reload({ tools: { deny: ['acme_hello'] } });
      await settle(host.client);
      expect(aliceEvents.count).to.equal(1);
      const names = await toolNames(host.client);
      expect(names).not.to.include('acme_hello');
      expect(names).to.include.members(['acme_add_note', 'acme_get_note']);
    });

    it('read-only mode removes every writing tool at once', async () => {
      host.kernel.reload({ tools: { readOnly: true } });
      await settle(host.client);
      expect(aliceEvents.count).to.equal(1);
      const { tools } = await host.client.listTools();
      expect(tools.length).to.be.greaterThan(0);
      expect(tools.every((t) => t.annotations?.readOnlyHint === true)).to.equal(true);
      expect(tools.map((t) => t.name)).not.to.include('acme_add_note');
      const write = await host.raw('acme_add_note', { text: 'x' }).catch((e: unknown) => e);
      expect(String(write)).to.match(/not found/);
    });

    it('going back to the boot configuration is one change too', async () => {
      host.kernel.reload({ tools: { readOnly: true, deny: ['acme_hello'] } });
      await settle(host.client);
      host.kernel.reload();
      await settle(host.client);
      expect(aliceEvents.count).to.equal(2);
      expect(await toolNames(host.client)).to.include.members([...ACME_TOOLS, 'list_projects']);
    });
  });

  describe('many sessions', () => {
    it('all hear about a change, without tripping the listener-leak warning', async () => {
      const warnings: string[] = [];
      const onWarning = (w: Error) => warnings.push(w.name);
      process.on('warning', onWarning);
      try {
        const clients = await Promise.all(Array.from({ length: 15 }, (_, i) => host.clientFor(`user${i}`)));
        const counters = clients.map((c) => listChangedCounter(c.client));
        host.kernel.reload({ tools: { deny: ['acme_get_note'] } });
        await settle(...clients.map((c) => c.client));
        expect(counters.map((c) => c.count)).to.deep.equal(clients.map(() => 1));
        host.kernel.reload();
        await settle(...clients.map((c) => c.client));
        await Promise.all(clients.map((c) => c.close()));
        expect(warnings).not.to.include('MaxListenersExceededWarning');
      } finally {
        process.off('warning', onWarning);
      }
    });
  });

  describe('tools/list cache', () => {
    it('serves the same array between changes and a new one after a change', async () => {
      host.kernel.reload();
      const first = host.kernel.registry.listing();
      expect(host.kernel.registry.listing()).to.equal(first);
      const { tools } = await host.client.listTools();
      expect(tools.map((t) => t.name)).to.deep.equal(first.map((t) => t.name));
      expect(host.kernel.registry.listing()).to.equal(first, 'answering tools/list does not rebuild it');

      host.kernel.reload({ tools: { deny: ['acme_hello'] } });
      const second = host.kernel.registry.listing();
      expect(second).not.to.equal(first);
      expect(second.map((t) => t.name)).not.to.include('acme_hello');
      expect(host.kernel.registry.listing()).to.equal(second);
      host.kernel.reload();
    });
  });
});

describe('third-party plugin disabled at boot', function () {
  let sandbox: PluginSandbox;
  let host: TestHost;

  before(async () => {
    sandbox = new PluginSandbox('tk-third-party-off-');
    host = await startTestHost({ config: { plugins: { paths: [sandbox.copyFixture('acme')], enabled: ['acme', 'projects'], disabled: ['acme'] } } });
  });
  after(async () => {
    await host?.close();
    sandbox?.remove();
  });

  it('is discovered but not loaded, and enabling it at run time asks for a restart instead of half-loading it', async () => {
    expect(host.kernel.describePlugins().find((p) => p.id === 'acme')).to.deep.include({ loaded: false, enabled: false });
    const events = listChangedCounter(host.client);
    const change = host.kernel.reload({ plugins: { disabled: [] } });
    expect(change).to.deep.equal({ on: [], off: [], restartNeeded: ['acme'] });
    await settle(host.client);
    expect(events.count).to.equal(0);
    expect(await toolNames(host.client)).not.to.include('acme_hello');
  });
});
