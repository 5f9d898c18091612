import { expect } from 'chai';
import { pino } from 'pino';
import { z } from 'zod';
import { DefaultModelService, openAiCompatibleProvider, parseModelJson, type NamedProvider } from '@testkeeper/kernel/host';
import type { ModelProvider } from '@testkeeper/kernel';
import { ChatCompletionsFake } from '../fakes/chat-completions-fake.js';

const silent = pino({ level: 'silent' });
/** The rejection of a promise that must fail (undefined if it resolved). */
const failure = (p: Promise<unknown>): Promise<Error | undefined> => p.then(() => undefined, (e: Error) => e);
const schema = z.object({ answer: z.number() });

function service(providers: NamedProvider[], timeoutMs = 500) {
  return new DefaultModelService({ providers: () => providers, defaultTimeoutMs: timeoutMs, logger: silent });
}

const fixed = (text: string, onCall?: () => void): ModelProvider => ({
  available: () => true,
  async complete() {
    onCall?.();
    return { text, model: 'fixed-1' };
  },
});

const task = (extra: Partial<Parameters<DefaultModelService['run']>[0]> = {}) => ({
  task: 'unit',
  system: 's',
  prompt: 'p',
  schema,
  fallback: () => ({ answer: -1 }),
  ...extra,
});

describe('models: parseModelJson', () => {
  it('reads bare JSON, fenced JSON and JSON inside prose', () => {
    expect(parseModelJson('{"a":1}')).to.deep.equal({ a: 1 });
    expect(parseModelJson('Here you go:\n```json\n{"a":2}\n```\nThanks')).to.deep.equal({ a: 2 });
    expect(parseModelJson('Sure! {"a":{"b":[1,2]}} hope that helps')).to.deep.equal({ a: { b: [1, 2] } });
    expect(parseModelJson('[1,2,3]')).to.deep.equal([1, 2, 3]);
  });

  it('throws when there is no JSON', () => {
    expect(() => parseModelJson('I cannot help with that')).to.throw(/no JSON/);
    expect(() => parseModelJson('{"a": ')).to.throw();
  });
});

describe('models: DefaultModelService', () => {
  it('uses the first available provider whose output validates, and names it', async () => {
    const out = await service([{ name: 'first', provider: fixed('{"answer": 42}') }]).run(task());
    expect(out).to.deep.equal({ value: { answer: 42 }, engine: 'first', model: 'fixed-1' });
  });

  it('skips unavailable providers and falls through invalid output to the next one', async () => {
    const out = await service([
      { name: 'off', provider: { available: () => false, complete: async () => ({ text: '{"answer":1}', model: 'x' }) } },
      { name: 'wrong-shape', provider: fixed('{"answer": "forty-two"}') },
      { name: 'good', provider: fixed('{"answer": 7}') },
    ]).run(task());
    expect(out.engine).to.equal('good');
    expect(out.value).to.deep.equal({ answer: 7 });
  });

  it('falls back to the deterministic engine with the reasons when no provider answers well', async () => {
    const out = await service([
      { name: 'prose', provider: fixed('no json here') },
      { name: 'broken', provider: { available: () => true, complete: async () => Promise.reject(new Error('connection refused')) } },
    ]).run(task());
    expect(out.engine).to.equal('deterministic');
    expect(out.value).to.deep.equal({ answer: -1 });
    expect(out.fallback_reason).to.match(/prose: .*no JSON/).and.match(/broken: connection refused/);
  });

  it('says so when no model is configured at all', async () => {
    const out = await service([]).run(task());
    expect(out).to.include({ engine: 'deterministic' });
    expect(out.fallback_reason).to.match(/no model/);
  });

  it('gives up on a provider after the timeout and falls back', async () => {
    const slow: ModelProvider = { available: () => true, complete: () => new Promise((r) => setTimeout(() => r({ text: '{"answer":1}', model: 'slow' }), 2000)) };
    const t0 = Date.now();
    const out = await service([{ name: 'slow', provider: slow }], 100).run(task());
    expect(Date.now() - t0).to.be.lessThan(1000);
    expect(out.engine).to.equal('deterministic');
    expect(out.fallback_reason).to.match(/slow: timed out after 100 ms/);
  });

  it('honours cancellation: rejects instead of falling back, and does not try further providers', async () => {
    const ac = new AbortController();
    let secondCalled = false;
    const hanging: ModelProvider = { available: () => true, complete: () => new Promise(() => undefined) };
    let fallbackCalled = false;
    const run = service([
      { name: 'hang', provider: hanging },
      { name: 'second', provider: fixed('{"answer":2}', () => (secondCalled = true)) },
    ], 5000).run(task({ signal: ac.signal, fallback: () => ((fallbackCalled = true), { answer: -1 }) }));
    setTimeout(() => ac.abort(new Error('client cancelled')), 30);
    const error = await failure(run);
    expect(error?.message).to.equal('client cancelled');
    expect(secondCalled).to.equal(false);
    expect(fallbackCalled).to.equal(false);
  });
});

describe('models: OpenAI-compatible provider against a loopback fake', () => {
  let fake: ChatCompletionsFake;
  before(async () => {
    fake = await new ChatCompletionsFake().start();
  });
  after(async () => fake?.stop());

  const provider = (key: string | null = 'sk-unit-key-123') => openAiCompatibleProvider({ baseUrl: fake.baseUrl + '/', model: 'llama3.1', apiKey: async () => key });
  const req = { system: 'sys', prompt: 'hello', maxTokens: 50, timeoutMs: 2000 };

  it('posts the chat-completions request with bearer auth and reads choices[0].message.content', async () => {
    fake.mode = { kind: 'reply', content: '{"answer": 1}' };
    const res = await provider().complete(req);
    expect(res).to.deep.equal({ text: '{"answer": 1}', model: 'llama3.1' });
    const sent = fake.requests.at(-1)!;
    expect(sent.url).to.equal('/v1/chat/completions');
    expect(sent.headers.authorization).to.equal('Bearer sk-unit-key-123');
    const body = JSON.parse(sent.body);
    expect(body).to.deep.include({ model: 'llama3.1', max_tokens: 50, stream: false });
    expect(body.messages).to.deep.equal([{ role: 'system', content: 'sys' }, { role: 'user', content: 'hello' }]);
  });

  it('sends no Authorization header without a key (local Ollama)', async () => {
    fake.mode = { kind: 'reply', content: 'ok' };
    await provider(null).complete(req);
    expect(fake.requests.at(-1)!.headers.authorization).to.equal(undefined);
  });

  it('reports HTTP errors with the status and the API message', async () => {
    fake.mode = { kind: 'error', status: 429, message: 'Rate limit reached' };
    const err = await failure(provider().complete(req));
    expect(err?.message).to.equal('model endpoint answered 429: Rate limit reached');
  });

  it('rejects a body that is not JSON and a reply without choices', async () => {
    fake.mode = { kind: 'not_json' };
    expect((await failure(provider().complete(req)))?.message).to.match(/not JSON/);
    fake.mode = { kind: 'no_choices' };
    expect((await failure(provider().complete(req)))?.message).to.match(/no choices/);
  });

  it('aborts the HTTP request when its own deadline passes', async () => {
    fake.mode = { kind: 'stall', ms: 1500, content: 'late' };
    const t0 = Date.now();
    const err = await failure(provider().complete({ ...req, timeoutMs: 100 }));
    expect(err?.name).to.equal('TimeoutError');
    expect(Date.now() - t0).to.be.lessThan(1000);
  });
});
