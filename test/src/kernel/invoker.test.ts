import { expect } from 'chai';
import { pino } from 'pino';
import { z } from 'zod';
import { Invoker, LiveRegistry, toInputJsonSchema } from '@testkeeper/kernel/host';
import { ToolError, type Caller } from '@testkeeper/kernel';

const caller: Caller = { userId: 1, username: 'alice', via: 'test' };
const SECRET = 'sk-live-0123456789abcdef';

function setup(handler: (args: any) => unknown) {
  const registry = new LiveRegistry({ toolsets: ['*'], allow: [], deny: [], readOnly: false });
  const input = z.object({ n: z.number().int().min(1) });
  registry.add({
    name: 'echo',
    description: 'echo',
    input,
    annotations: { readOnlyHint: true },
    toolset: 't',
    plugin: 'p',
    handler: async (args) => handler(args),
    listing: { name: 'echo', description: 'echo', inputSchema: toInputJsonSchema(input), annotations: { readOnlyHint: true } },
  });
  registry.apply();
  const invoker = new Invoker(registry, pino({ level: 'silent' }));
  return { registry, invoker };
}

describe('invoker: the one path from a call to an envelope', () => {
  it('masks a known secret in any result, success or error, whichever pack produced it', async () => {
    const known = new Set<string>();
    const scrubber = {
      get scrubbing() {
        return known.size > 0;
      },
      scrub: (text: string) => [...known].reduce((t, v) => t.split(v).join('[redacted]'), text),
    };
    const { invoker } = setup((args) => {
      if (args.n === 2) throw new ToolError('upstream_error', `upstream said: bad key ${SECRET}`);
      return { echoed: `token=${SECRET}` };
    });
    invoker.setScrubber(scrubber);

    const before = await invoker.invoke('echo', { n: 1 }, { caller });
    expect(before.envelope.result).to.deep.equal({ echoed: `token=${SECRET}` }, 'nothing known yet: untouched');

    known.add(SECRET);
    const ok = await invoker.invoke('echo', { n: 1 }, { caller });
    expect(ok.envelope).to.deep.equal({ success: true, result: { echoed: 'token=[redacted]' } });
    const failed = await invoker.invoke('echo', { n: 2 }, { caller });
    expect(failed.envelope.error).to.deep.include({ code: 'upstream_error', message: 'upstream said: bad key [redacted]' });
  });

  it('reports unexpected failures as internal with the transport request id, never the message', async () => {
    const { invoker } = setup(() => {
      throw new Error('SQLITE_ERROR near "FROM": syntax error at /srv/app/db.ts:12');
    });
    const out = await invoker.invoke('echo', { n: 1 }, { caller, requestId: 'req-42' });
    expect(out.envelope.success).to.equal(false);
    expect(out.envelope.error).to.deep.include({ code: 'internal', reference: 'req-42' });
    expect(JSON.stringify(out.envelope)).to.not.match(/SQLITE|syntax|\/srv/);
  });

  it('rejects bad arguments with invalid_argument naming the field, and unknown tools as not found', async () => {
    const { invoker } = setup(() => ({}));
    const bad = await invoker.invoke('echo', { n: 0 }, { caller });
    expect(bad.envelope.error?.code).to.equal('invalid_argument');
    expect(bad.envelope.error?.message).to.match(/^n: /);
    const unknown = await invoker.invoke('nope', {}, { caller });
    expect(unknown.found).to.equal(false);
  });
});
