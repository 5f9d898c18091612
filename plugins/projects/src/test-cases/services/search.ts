import type { StorageService } from '@testkeeper/kernel';
import { ftsTable, PROJECT_SPAN } from '../migrations/fts.js';

/** Query words: letters and digits only, so user input never reaches the query syntax. */
export function queryTerms(query: string, max = 12): string[] {
  return [...new Set((query.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((t) => t.length > 0))].slice(0, max);
}

export interface FtsQuery {
  table: string;
  /** Weighted text columns, in the order the index was created with. */
  columns: string[];
  /** Relative weights (SQLite bm25), one per column. */
  weights: number[];
  projectId: number;
  terms: string[];
  /** every term (`all`) or at least one (`any`). */
  mode: 'all' | 'any';
  /** Extra `AND` conditions on the base table `t`, with their values. */
  filters: Array<{ sql: string; value: unknown }>;
  select: string[];
  limit: number;
}

/**
 * Ranked full-text search in the database's own index: SQLite FTS5 with bm25, PostgreSQL tsvector
 * with ts_rank_cd. Returns rows of `select` plus `score` (higher = better on both backends).
 */
export async function fullTextSearch(storage: StorageService, q: FtsQuery): Promise<Array<Record<string, unknown>>> {
  if (q.terms.length === 0) return [];
  const cols = q.select.map((c) => `t.${c}`).join(', ');
  const params: unknown[] = [];
  const p = (v: unknown) => {
    params.push(v);
    return storage.dialect === 'postgres' ? `$${params.length}` : '?';
  };
  if (storage.dialect === 'postgres') {
    const tsq = q.terms.join(q.mode === 'all' ? ' & ' : ' | ');
    const query = `to_tsquery('english', ${p(tsq)})`;
    const where = [`t.project_id = ${p(q.projectId)}`, `t.search_vector @@ ${query}`];
    for (const f of q.filters) where.push(f.sql.replace('?', p(f.value)));
    const sql =
      `SELECT ${cols}, ts_rank_cd(t.search_vector, ${query}) AS score FROM ${q.table} t ` +
      `WHERE ${where.join(' AND ')} ORDER BY score DESC, t.id ASC LIMIT ${p(q.limit)}`;
    return storage.manager.query(sql, params);
  }
  const fts = ftsTable(q.table);
  const match = q.terms.map((t) => `"${t}"`).join(q.mode === 'all' ? ' AND ' : ' OR ');
  const base = q.projectId * PROJECT_SPAN;
  // bm25 is lower-is-better; negate it so both backends sort the same way.
  const rank = `-bm25(${fts}, ${q.weights.join(', ')})`;
  if (q.filters.length === 0) {
    // Rank inside the index first, then fetch only the winners' rows.
    const sql =
      `SELECT ${cols}, f.score FROM (SELECT rowid, ${rank} AS score FROM ${fts} WHERE ${fts} MATCH ${p(match)} AND rowid BETWEEN ${p(base)} AND ${p(base + PROJECT_SPAN - 1)} ` +
      `ORDER BY score DESC LIMIT ${p(q.limit)}) f JOIN ${q.table} t ON t.id = f.rowid - ${p(base)} ORDER BY f.score DESC, t.id ASC`;
    return storage.manager.query(sql, params);
  }
  // Placeholders are positional on SQLite: create them in the order they appear in the text.
  // CROSS JOIN keeps the index as the outer loop: bm25() only works on rows the MATCH produced.
  const join = `CROSS JOIN ${q.table} t ON t.id = ${fts}.rowid - ${p(base)}`;
  const where = [`${fts} MATCH ${p(match)}`, `${fts}.rowid BETWEEN ${p(base)} AND ${p(base + PROJECT_SPAN - 1)}`];
  for (const f of q.filters) where.push(f.sql.replace('?', p(f.value)));
  const sql = `SELECT ${cols}, ${rank} AS score FROM ${fts} ${join} WHERE ${where.join(' AND ')} ORDER BY score DESC, t.id ASC LIMIT ${p(q.limit)}`;
  return storage.manager.query(sql, params);
}

/** All terms first; when that finds nothing, any term (ranked by how many match). */
export async function rankedSearch(storage: StorageService, q: Omit<FtsQuery, 'mode'>): Promise<{ rows: Array<Record<string, unknown>>; mode: 'all' | 'any' }> {
  const all = await fullTextSearch(storage, { ...q, mode: 'all' });
  if (all.length > 0 || q.terms.length < 2) return { rows: all, mode: 'all' };
  return { rows: await fullTextSearch(storage, { ...q, mode: 'any' }), mode: 'any' };
}
