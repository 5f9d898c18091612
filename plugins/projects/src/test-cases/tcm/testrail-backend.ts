import type { TcmBackend, TcmCase, TcmCredentials } from '@testkeeper/kernel';
import { TestRailClient, type TestRailOptions } from './testrail-client.js';

interface TrCase {
  id: number;
  title: string;
  suite_id?: number;
  priority_id?: number;
  refs?: string | null;
  custom_preconds?: string | null;
  custom_steps?: string | null;
  custom_expected?: string | null;
  custom_steps_separated?: Array<{ content?: string | null; expected?: string | null }> | null;
  custom_description?: string | null;
  is_deleted?: number | boolean;
}
interface TrSuite {
  id: number;
  name: string;
}
interface TrPriority {
  id: number;
  name?: string;
  short_name?: string;
  priority?: number;
}

/** TestRail's stock priorities (ids 1-4) when get_priorities cannot be read. */
const STOCK_PRIORITIES: Record<number, string> = { 1: 'low', 2: 'medium', 3: 'high', 4: 'critical' };

/** A TestRail priority name in our words ("4 - Must Test" → critical, "Don't Test" → low). */
export function priorityWord(p: TrPriority): string {
  const name = `${p.name ?? ''} ${p.short_name ?? ''}`.toLowerCase();
  if (/critical|must|blocker|urgent/.test(name)) return 'critical';
  if (/high|major/.test(name)) return 'high';
  if (/medium|normal|should/.test(name)) return 'medium';
  if (/low|minor|trivial|could|don.?t/.test(name)) return 'low';
  return STOCK_PRIORITIES[p.id] ?? 'medium';
}

/** A case's steps: the separated-steps template when present, else the text template's lines. */
export function mapSteps(c: TrCase): TcmCase['steps'] {
  if (Array.isArray(c.custom_steps_separated) && c.custom_steps_separated.length) {
    return c.custom_steps_separated
      .filter((s) => (s.content ?? '').trim())
      .map((s) => ({ step: s.content!.trim(), ...(s.expected?.trim() ? { expected: s.expected.trim() } : {}) }));
  }
  const lines = (c.custom_steps ?? '')
    .split(/\r?\n/)
    .map((l) => l.replace(/^\s*(?:\d+[.)]|[-*])\s*/, '').trim())
    .filter(Boolean);
  const steps: TcmCase['steps'] = lines.map((step) => ({ step }));
  const expected = c.custom_expected?.trim();
  if (expected) {
    if (steps.length) steps[steps.length - 1]!.expected = expected;
    else steps.push({ step: `Perform: ${c.title}`, expected });
  }
  return steps;
}

/** The TestRail backend of `projects.tcm`. */
export class TestRailBackend implements TcmBackend {
  constructor(private readonly opts: TestRailOptions = {}) {}

  async fetchCases(creds: TcmCredentials, q: { projectId: number; suiteId?: number; signal?: AbortSignal }) {
    const client = new TestRailClient(creds, this.opts);
    const suites = await client.getAll<TrSuite>(`get_suites/${q.projectId}`, 'suites', q.signal);
    const wanted = q.suiteId !== undefined ? suites.filter((s) => s.id === q.suiteId) : suites;
    if (q.suiteId !== undefined && wanted.length === 0) wanted.push({ id: q.suiteId, name: `Suite ${q.suiteId}` });
    const priorities = await this.priorities(client, q.signal);
    const cases: TcmCase[] = [];
    // Single-suite projects may list no suites: then get_cases needs no suite_id.
    for (const suite of wanted.length ? wanted : [null]) {
      const path = `get_cases/${q.projectId}` + (suite ? `&suite_id=${suite.id}` : '');
      for (const c of await client.getAll<TrCase>(path, 'cases', q.signal)) {
        if (c.is_deleted) continue;
        const refs = (c.refs ?? '').split(',').map((r) => r.trim()).filter(Boolean);
        cases.push({
          external_id: String(c.id),
          title: c.title,
          description: (c.custom_description ?? '').trim(),
          preconditions: (c.custom_preconds ?? '').trim(),
          steps: mapSteps(c),
          priority: c.priority_id !== undefined ? (priorities.get(c.priority_id) ?? STOCK_PRIORITIES[c.priority_id]) : undefined,
          category: suite?.name,
          tags: ['testrail', ...refs],
        });
      }
    }
    return { cases, suites: wanted };
  }

  private async priorities(client: TestRailClient, signal?: AbortSignal): Promise<Map<number, string>> {
    try {
      const list = (await client.get('get_priorities', signal)) as TrPriority[];
      return new Map(Array.isArray(list) ? list.map((p) => [p.id, priorityWord(p)]) : []);
    } catch {
      signal?.throwIfAborted();
      return new Map(); // stock ids still map
    }
  }
}
