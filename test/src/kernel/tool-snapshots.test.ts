import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { startTestHost, type TestHost } from '@testkeeper/kernel/testing';
import { repoRoot } from './support/plugin-sandbox.js';

/**
 * One snapshot per tool of what `tools/list` shows a model (name, title, description, input schema,
 * annotations), so a changed description or schema is a reviewed change.
 */
const SNAPSHOT_DIR = path.join(repoRoot, 'test', 'snapshots', 'tools');
const UPDATE = process.env.UPDATE_SNAPSHOTS === '1';
const HOW_TO_UPDATE = 'If the change is intended, run `UPDATE_SNAPSHOTS=1 npx mocha test/dist/kernel/tool-snapshots.test.js` and commit test/snapshots/tools/.';
/** The product's budget for the tools/list payload, averaged over all tools. */
const MAX_AVG_BYTES_PER_TOOL = 400;

type Listing = ReturnType<TestHost['kernel']['registry']['listing']>[number];

const parseOrText = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
};
const snapshotFile = (name: string) => path.join(SNAPSHOT_DIR, `${name}.json`);
const render = (tool: Listing) =>
  JSON.stringify(
    { name: tool.name, ...(tool.title ? { title: tool.title } : {}), description: tool.description, inputSchema: tool.inputSchema, annotations: tool.annotations },
    null,
    2,
  ) + '\n';

/** The first place two JSON values differ, as `path: before → now`. */
function firstDifference(before: unknown, now: unknown, at = ''): string | null {
  const show = (v: unknown) => (v === undefined ? '(absent)' : JSON.stringify(v));
  if (JSON.stringify(before) === JSON.stringify(now)) return null;
  if (before && now && typeof before === 'object' && typeof now === 'object' && Array.isArray(before) === Array.isArray(now)) {
    const keys = new Set([...Object.keys(before), ...Object.keys(now)]);
    for (const k of keys) {
      const d = firstDifference((before as Record<string, unknown>)[k], (now as Record<string, unknown>)[k], at ? `${at}.${k}` : k);
      if (d) return d;
    }
    return `${at || '(root)'}: key order changed`;
  }
  return `${at || '(root)'}: ${show(before)} → ${show(now)}`;
}

describe('tool-schema snapshots (all workspace plugins)', function () {
  let host: TestHost;
  let tools: Listing[];

  before(async () => {
    host = await startTestHost({ config: { tools: { toolsets: ['*'], allow: [], deny: [], readOnly: false } } });
    tools = host.kernel.registry.listing();
  });
  after(async () => host?.close());

  it('matches test/snapshots/tools/<tool>.json for every enabled tool, and no snapshot is stale', () => {
    expect(tools.length, 'no tools loaded').to.be.greaterThan(0);
    mkdirSync(SNAPSHOT_DIR, { recursive: true });
    const changed: string[] = [];
    const added: string[] = [];
    for (const tool of tools) {
      const file = snapshotFile(tool.name);
      const now = render(tool);
      const before = existsSync(file) ? readFileSync(file, 'utf8') : null;
      if (before === now) continue;
      if (before === null) added.push(tool.name);
      else changed.push(`${tool.name} (${firstDifference(parseOrText(before), JSON.parse(now))})`);
      if (UPDATE) writeFileSync(file, now);
    }
    const live = new Set(tools.map((t) => t.name));
    const stale = readdirSync(SNAPSHOT_DIR)
      .filter((f) => f.endsWith('.json') && !live.has(f.slice(0, -'.json'.length)))
      .map((f) => f.slice(0, -'.json'.length));
    if (UPDATE) for (const name of stale) rmSync(snapshotFile(name));

    const problems = [
      changed.length ? `changed: ${changed.join('; ')}` : '',
      added.length ? `no snapshot yet: ${added.join(', ')}` : '',
      stale.length ? `snapshot of a tool that no longer exists: ${stale.join(', ')}` : '',
    ].filter(Boolean);
    if (UPDATE && problems.length) console.log(`      updated tool snapshots — ${problems.join(' | ')}`);
    if (!UPDATE) expect(problems, `Tool snapshots differ — ${problems.join(' | ')}. ${HOW_TO_UPDATE}`).to.deep.equal([]);
  });

  it('every tool declares readOnlyHint, and destructiveHint when it writes', () => {
    const missing = tools.filter((t) => {
      const a = t.annotations as { readOnlyHint?: unknown; destructiveHint?: unknown };
      return typeof a.readOnlyHint !== 'boolean' || (a.readOnlyHint === false && typeof a.destructiveHint !== 'boolean');
    });
    expect(missing.map((t) => t.name), 'tools with incomplete annotations').to.deep.equal([]);
  });

  it(`keeps the tools/list payload within ${MAX_AVG_BYTES_PER_TOOL} bytes per tool on average`, async () => {
    // Measure what a client actually receives: the result of tools/list over the protocol.
    const result = await host.client.listTools();
    expect(result.tools.map((t) => t.name)).to.deep.equal(tools.map((t) => t.name));
    const bytes = Buffer.byteLength(JSON.stringify({ tools: host.kernel.registry.listing() }));
    const average = bytes / tools.length;
    const heaviest = tools
      .map((t) => ({ name: t.name, bytes: Buffer.byteLength(JSON.stringify(t)) }))
      .sort((a, b) => b.bytes - a.bytes)
      .slice(0, 5);
    console.log(`      tools/list: ${tools.length} tools, ${bytes} bytes, ${average.toFixed(0)} B/tool (heaviest: ${heaviest.map((h) => `${h.name} ${h.bytes}`).join(', ')})`);
    expect(average, `tools/list averages ${average.toFixed(0)} B/tool over ${tools.length} tools; the target is ≤ ${MAX_AVG_BYTES_PER_TOOL}. Heaviest: ${heaviest.map((h) => `${h.name} (${h.bytes} B)`).join(', ')}`).to.be.at.most(MAX_AVG_BYTES_PER_TOOL);
  });
});
