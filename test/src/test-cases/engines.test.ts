import { expect } from 'chai';
import { Tokens } from '@testkeeper/kernel';
import { onEachBackend, startTestHost, type TestClient, type TestHost } from '@testkeeper/kernel/testing';
import type { CreateMessageRequest } from '@modelcontextprotocol/sdk/types.js';
import { ChatCompletionsFake } from '../fakes/chat-completions-fake.js';
import { expectError, newProject } from './helpers.js';

const STEPS_JSON = JSON.stringify({ steps: [{ step: 'Open the app', expected: 'The app opens' }, { step: 'Tap "Start"', expected: 'Onboarding starts' }], preconditions: ['A fresh install'] });

onEachBackend(describe, before, 'test cases: engines (MCP sampling, OpenAI-compatible, deterministic)', (backend) => {
  describe('MCP sampling', () => {
    let host: TestHost;
    let projectId: number;
    let reply = STEPS_JSON;
    const seen: Array<CreateMessageRequest['params']> = [];
    before(async () => {
      host = await startTestHost({
        storage: backend,
        sampling: (req) => {
          seen.push(req);
          return { model: 'client-model-1', role: 'assistant', content: { type: 'text', text: reply } };
        },
      });
      projectId = await newProject(host, 'Sampling app');
    });
    after(async () => host?.close());

    it("generates steps with the client's model when it declared sampling", async () => {
      const tc = await host.ok('create_test_case', { project_id: projectId, title: 'First launch onboarding', description: 'New users see the tour' });
      expect(tc).to.include({ engine: 'mcp_sampling', model: 'client-model-1', steps_generated: true, preconditions: 'A fresh install' });
      expect(tc.steps).to.deep.equal(JSON.parse(STEPS_JSON).steps);
      const req = seen.at(-1)!;
      expect(req.systemPrompt).to.match(/JSON only/);
      const first = req.messages[0]!.content as { type: string; text: string };
      expect(first.text).to.include('First launch onboarding').and.include('New users see the tour');
    });

    it('falls back to the deterministic engine when the client answers with prose', async () => {
      reply = 'I would test the login like this: first open the page...';
      const tc = await host.ok('create_test_case', { project_id: projectId, title: 'Log in', description: '' });
      expect(tc.engine).to.equal('deterministic');
      expect(tc.fallback_reason).to.match(/mcp_sampling/);
      expect(tc.steps.length).to.be.greaterThan(2);
      reply = STEPS_JSON;
    });

    it('accepts model steps that carry extra keys, keeping only step, expected and resource_id', async () => {
      reply = JSON.stringify({ steps: [{ step: 'Open the app', expected: 'It opens', notes: 'smoke', id: 1 }] });
      const tc = await host.ok('create_test_case', { project_id: projectId, title: 'Open app' });
      reply = STEPS_JSON;
      expect(tc.engine).to.equal('mcp_sampling');
      expect(tc.steps).to.deep.equal([{ step: 'Open the app', expected: 'It opens' }]);
    });

    it('enhances through sampling and records the engine', async () => {
      const tc = await host.ok('create_test_case', { project_id: projectId, title: 'Settings', steps: [{ step: 'Open settings' }] });
      reply = JSON.stringify({ description: 'Checks that settings open and save.', preconditions: 'Signed in.', steps: [{ step: 'Open settings', expected: 'Settings page shows' }, { step: 'Open settings', expected: 'dup' }, { step: 'Verify the saved values', expected: 'Values persist' }] });
      const out = await host.ok('enhance_test_case', { test_case_id: tc.id });
      reply = STEPS_JSON;
      expect(out).to.include({ engine: 'mcp_sampling', description: 'Checks that settings open and save.', preconditions: 'Signed in.' });
      expect(out.steps.map((s: { step: string }) => s.step)).to.deep.equal(['Open settings', 'Verify the saved values']);
      expect(out.version).not.to.equal(tc.version);
    });
  });

  describe('OpenAI-compatible endpoint (loopback fake)', () => {
    let fake: ChatCompletionsFake;
    let host: TestHost;
    let plain: TestClient;
    let projectId: number;
    const KEY = 'sk-live-abcdef0123456789';
    before(async () => {
      fake = await new ChatCompletionsFake().start();
      host = await startTestHost({
        storage: backend,
        config: { models: { baseUrl: fake.baseUrl, model: 'gpt-test', apiKey: KEY, timeoutMs: 400 } },
        sampling: () => ({ model: 'client-model', role: 'assistant', content: { type: 'text', text: STEPS_JSON } }),
      });
      plain = await host.clientFor('carol');
      projectId = await newProject(plain, 'Endpoint app');
    });
    after(async () => {
      await host?.close();
      await fake?.stop();
    });

    const create = (title: string) => plain.ok('create_test_case', { project_id: projectId, title, description: 'Users search the catalogue' });

    it('uses the endpoint for a client without sampling, sending the configured model and key', async () => {
      fake.mode = { kind: 'reply', content: '```json\n' + STEPS_JSON + '\n```' };
      const tc = await create('Catalogue search');
      expect(tc).to.include({ engine: 'openai_compatible', model: 'gpt-test' });
      expect(tc.steps).to.have.length(2);
      const sent = fake.requests.at(-1)!;
      expect(sent.headers.authorization).to.equal(`Bearer ${KEY}`);
      expect(JSON.parse(sent.body).model).to.equal('gpt-test');
    });

    it('prefers the client sampling channel when the client offers one', async () => {
      const before = fake.requests.length;
      const pid = await newProject(host, 'Sampling first');
      const tc = await host.ok('create_test_case', { project_id: pid, title: 'Anything' });
      expect(tc.engine).to.equal('mcp_sampling');
      expect(fake.requests.length).to.equal(before);
    });

    for (const [label, mode, reason] of [
      ['an HTTP 500', { kind: 'error', status: 500, message: 'upstream exploded' }, /openai_compatible: model endpoint answered 500: upstream exploded/],
      ['a body that is not JSON', { kind: 'not_json' }, /not JSON/],
      ['malformed model output', { kind: 'reply', content: '{"steps": "open the page"}' }, /did not match the expected shape/],
      ['prose instead of JSON', { kind: 'reply', content: 'Sure, here are some steps.' }, /no JSON/],
      ['a timeout', { kind: 'stall', ms: 2000, content: STEPS_JSON }, /timed out after 400 ms/],
    ] as const) {
      it(`falls back to the deterministic engine on ${label}`, async () => {
        fake.mode = mode as never;
        const t0 = Date.now();
        const tc = await create(`Search after ${label}`);
        expect(Date.now() - t0).to.be.lessThan(1500);
        expect(tc.engine).to.equal('deterministic');
        expect(tc.fallback_reason).to.match(reason);
        expect(tc.steps.map((s: { step: string }) => s.step).join(' ')).to.match(/search field/);
      });
    }

    it('never echoes the API key in a fallback reason', async () => {
      fake.mode = { kind: 'error', status: 401, message: `Incorrect API key provided: ${KEY}` };
      const tc = await create('Key leak check');
      expect(tc.engine).to.equal('deterministic');
      expect(tc.fallback_reason).to.include('Incorrect API key provided').and.not.include(KEY);
      expect(JSON.stringify(tc)).not.to.include(KEY);
    });
  });

  describe('API key from the secrets store', () => {
    let fake: ChatCompletionsFake;
    let host: TestHost;
    before(async () => {
      fake = await new ChatCompletionsFake().start();
      host = await startTestHost({ storage: backend, config: { models: { baseUrl: fake.baseUrl, model: 'm' } } });
    });
    after(async () => {
      await host?.close();
      await fake?.stop();
    });

    it('reads the server-wide models:api_key secret when no key is configured', async () => {
      await host.kernel.container.resolve(Tokens.Secrets).put(0, 'models:api_key', 'sk-from-store-998877');
      fake.mode = { kind: 'reply', content: STEPS_JSON };
      const pid = await newProject(host, 'Stored key');
      const tc = await host.ok('create_test_case', { project_id: pid, title: 'x' });
      expect(tc.engine).to.equal('openai_compatible');
      expect(fake.requests.at(-1)!.headers.authorization).to.equal('Bearer sk-from-store-998877');
    });
  });

  describe('enhance_test_case (deterministic engine)', () => {
    let host: TestHost;
    let bob: TestClient;
    let projectId: number;
    before(async () => {
      host = await startTestHost({ storage: backend });
      bob = await host.clientFor('bob');
      projectId = await newProject(host, 'Enhance app');
    });
    after(async () => host?.close());

    it('adds missing expectations, preconditions and a verification point without duplicating', async () => {
      const tc = await host.ok('create_test_case', {
        project_id: projectId,
        title: 'Delete a saved address',
        steps: [{ step: 'Open the address book' }, { step: 'Click "Delete" next to the address', expected: 'A confirmation dialog opens' }],
      });
      const out = await host.ok('enhance_test_case', { test_case_id: tc.id });
      expect(out.engine).to.equal('deterministic');
      expect(out.steps.slice(0, 2).map((s: { step: string }) => s.step)).to.deep.equal(['Open the address book', 'Click "Delete" next to the address']);
      expect(out.steps[1].expected).to.equal('A confirmation dialog opens');
      expect(out.steps.every((s: { expected?: string }) => s.expected)).to.equal(true);
      expect(out.steps.at(-1).step).to.match(/^Verify that the saved address is permanently removed/);
      expect(out.preconditions).to.match(/saved address that may be deleted exists/);
      expect(out.description).to.match(/^Verifies that delete a saved address/);
      expect(out.added).to.deep.include({ expectations: 1, verification_points: 1, steps: 0, description: true });
      expect(out.previous_version).to.equal(tc.version);

      const again = await host.ok('enhance_test_case', { test_case_id: tc.id });
      expect(again.steps).to.deep.equal(out.steps);
      expect(again.preconditions).to.equal(out.preconditions);
      expect(again.added).to.deep.include({ expectations: 0, verification_points: 0, preconditions: 0, description: false });
    });

    it('generates steps for a case that has none', async () => {
      const tc = await host.ok('create_test_case', { project_id: projectId, title: 'Add a product to the cart', auto_generate_steps: false });
      const out = await host.ok('enhance_test_case', { test_case_id: tc.id });
      expect(out.added.steps).to.be.greaterThan(2);
      expect(out.steps.map((s: { step: string }) => s.step).join(' ')).to.match(/Add to cart/);
    });

    it("rejects bad ids and another user's case", async () => {
      const tc = await host.ok('create_test_case', { project_id: projectId, title: 'Mine', steps: [{ step: 'a' }] });
      await expectError(host, 'enhance_test_case', { test_case_id: -3 }, 'invalid_argument');
      const err = await expectError(bob, 'enhance_test_case', { test_case_id: tc.id }, 'not_found');
      expect(err.message).to.equal(`test case ${tc.id} was not found`);
      expect((await host.ok('get_test_case', { test_case_id: tc.id })).version).to.equal(tc.version);
    });
  });
});
