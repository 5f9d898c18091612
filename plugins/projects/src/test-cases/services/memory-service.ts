import { createHash } from 'node:crypto';
import { inject, injectable, invalidArgument, Tokens, type Clock, type ProjectMemoryWriter, type StorageService } from '@testkeeper/kernel';
import { IsNull } from 'typeorm';
import { MemoryReuseRow, MemoryRow } from '../entities/memory.js';
import { normalize } from '../engines/text.js';
import { queryTerms, rankedSearch } from './search.js';

export const MEMORY_KINDS = ['learning', 'verified_run', 'negotiation'] as const;
export type MemoryKind = (typeof MEMORY_KINDS)[number];
export const MAX_MEMORY_TEXT = 4000;

export interface MemoryEntryView {
  id: number;
  kind: string;
  text: string;
  test_case_id: number | null;
  provenance: { recorded_by: string; source_ref: string | null; recorded_at: string };
  score?: number;
}

const view = (r: MemoryRow, score?: number): MemoryEntryView => ({
  id: r.id,
  kind: r.kind,
  text: r.text,
  test_case_id: r.test_case_id,
  provenance: { recorded_by: r.source, source_ref: r.source_ref, recorded_at: r.created_at },
  ...(score !== undefined ? { score: Number(score.toPrecision(4)) } : {}),
});

/**
 * Durable project memory (Tokens.ProjectMemory for other packs). Entries carry their provenance;
 * retrieval is full-text ranked, optionally nudged toward an intent. The same text recorded twice
 * for a project is stored once.
 */
@injectable()
export class ProjectMemoryService implements ProjectMemoryWriter {
  constructor(
    @inject(Tokens.Storage) private readonly storage: StorageService,
    @inject(Tokens.Clock) private readonly clock: Clock,
  ) {}

  async record(entry: Parameters<ProjectMemoryWriter['record']>[0]): Promise<{ id: number; duplicate?: boolean }> {
    if (!(MEMORY_KINDS as readonly string[]).includes(entry.kind)) throw invalidArgument(`memory kind ${entry.kind} is not known`, `Use one of ${MEMORY_KINDS.join(', ')}.`);
    const text = entry.text.trim();
    if (!text || text.length > MAX_MEMORY_TEXT) throw invalidArgument(`memory text must be 1 to ${MAX_MEMORY_TEXT} characters`);
    return this.storage.write(async (em) => {
      // Verified runs add an entry per run: look the text up by its key instead of scanning history.
      const text_key = memoryTextKey(text);
      const dup = await em.findOne(MemoryRow, {
        where: { project_id: entry.project_id, kind: entry.kind, test_case_id: entry.test_case_id ?? IsNull(), text_key },
        select: { id: true },
      });
      if (dup) return { id: dup.id, duplicate: true };
      const row = await em.save(
        em.create(MemoryRow, {
          project_id: entry.project_id,
          owner_id: entry.owner_id,
          kind: entry.kind,
          text,
          text_key,
          test_case_id: entry.test_case_id ?? null,
          source: entry.source.slice(0, 200),
          source_ref: entry.source_ref?.slice(0, 300) ?? null,
          created_at: this.clock.now().toISOString(),
        }),
      );
      return { id: row.id };
    });
  }

  /** Newest first, or ranked by relevance to `query` (and `intent`) with the full-text index. */
  async retrieve(q: { projectId: number; testCaseId?: number; limit: number; query?: string; intent?: string }): Promise<{ entries: MemoryEntryView[]; ranking: string }> {
    if (!q.query) {
      const rows = await this.storage.repo(MemoryRow).find({
        where: { project_id: q.projectId, ...(q.testCaseId ? { test_case_id: q.testCaseId } : {}) },
        order: { id: 'DESC' },
        take: q.limit,
      });
      return { entries: rows.map((r) => view(r)), ranking: 'newest_first' };
    }
    const terms = queryTerms(q.query);
    if (terms.length === 0) throw invalidArgument('query has no words to search for', 'Use letters or digits, e.g. "login flaky selector".');
    const { rows } = await rankedSearch(this.storage, {
      table: 'projects_memory',
      columns: ['text'],
      weights: [1],
      projectId: q.projectId,
      terms,
      filters: q.testCaseId ? [{ sql: 't.test_case_id = ?', value: q.testCaseId }] : [],
      select: ['id', 'project_id', 'owner_id', 'kind', 'text', 'test_case_id', 'source', 'source_ref', 'created_at'],
      limit: q.intent ? q.limit * 3 : q.limit,
    });
    let scored = rows.map((r) => ({ row: r as unknown as MemoryRow, score: Number(r.score) }));
    if (q.intent) {
      // The intent re-ranks what the query found: entries that also speak to it move up.
      const intentTerms = new Set(queryTerms(q.intent));
      const top = Math.max(...scored.map((s) => s.score), 1e-9);
      scored = scored
        .map((s) => {
          const words = new Set(normalize(`${s.row.text} ${s.row.kind}`).split(' '));
          const hits = [...intentTerms].filter((t) => [...words].some((w) => w.startsWith(t.slice(0, Math.max(4, t.length - 2))))).length;
          return { ...s, score: s.score + (intentTerms.size ? (hits / intentTerms.size) * top : 0) };
        })
        .sort((a, b) => b.score - a.score || b.row.id - a.row.id)
        .slice(0, q.limit);
    }
    return { entries: scored.map((s) => view(s.row, s.score)), ranking: q.intent ? 'full_text+intent' : 'full_text' };
  }

  /** Adds one client-reported reuse outcome to the project's totals (never tied to entries). */
  async countReuse(projectId: number, reused: boolean): Promise<void> {
    await this.storage.write(async (em) => {
      const row = await em.findOne(MemoryReuseRow, { where: { project_id: projectId } });
      if (!row) await em.insert(MemoryReuseRow, { project_id: projectId, reused: reused ? 1 : 0, not_reused: reused ? 0 : 1 });
      else await em.increment(MemoryReuseRow, { project_id: projectId }, reused ? 'reused' : 'not_reused', 1);
    });
  }

  async reuseTotals(projectId: number): Promise<{ reused: number; not_reused: number }> {
    const row = await this.storage.repo(MemoryReuseRow).findOne({ where: { project_id: projectId } });
    return { reused: row?.reused ?? 0, not_reused: row?.not_reused ?? 0 };
  }

  async count(projectId: number): Promise<number> {
    return this.storage.repo(MemoryRow).count({ where: { project_id: projectId } });
  }
}

/** The dedupe key of a memory text: equal after normalization (case, punctuation, spacing). */
export function memoryTextKey(text: string): string {
  return createHash('sha256').update(normalize(text)).digest('hex');
}

