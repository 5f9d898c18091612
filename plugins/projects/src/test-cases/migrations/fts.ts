import type { QueryRunner } from 'typeorm';

/**
 * Full-text index for a table, in the database's own engine:
 * SQLite — an FTS5 table whose rowid is `project_id * 2^32 + id`, kept in step by triggers, so a
 * project's rows are one rowid range (FTS5 seeks ranges natively; no join or extra token needed);
 * PostgreSQL — a stored, weighted tsvector column with a GIN index.
 * `columns` are listed by weight (first = most important).
 */
export interface FtsSpec {
  table: string;
  columns: string[];
}

export const ftsTable = (table: string) => `${table}_fts`;
/** Rowids per project in the SQLite index: ids stay below 2^32, project ids below 2^21 (JS-safe). */
export const PROJECT_SPAN = 4294967296;
const key = (row: 'new' | 'old') => `${row}.project_id * ${PROJECT_SPAN} + ${row}.id`;

export async function createFullTextIndex(qr: QueryRunner, spec: FtsSpec): Promise<void> {
  const { table, columns } = spec;
  if (qr.connection.options.type === 'postgres') {
    const weights = ['A', 'B', 'C', 'D'];
    const vector = columns
      .map((c, i) => `setweight(to_tsvector('english', coalesce(${c}, '')), '${weights[Math.min(i, 3)]}')`)
      .join(' || ');
    await qr.query(`ALTER TABLE ${table} ADD COLUMN search_vector tsvector GENERATED ALWAYS AS (${vector}) STORED`);
    await qr.query(`CREATE INDEX ${table}_search ON ${table} USING GIN (search_vector)`);
    return;
  }
  const fts = ftsTable(table);
  const cols = columns.join(', ');
  const newVals = columns.map((c) => `new.${c}`).join(', ');
  await qr.query(`CREATE VIRTUAL TABLE ${fts} USING fts5(${cols}, tokenize = 'porter unicode61')`);
  await qr.query(`CREATE TRIGGER ${table}_fts_ai AFTER INSERT ON ${table} BEGIN INSERT INTO ${fts} (rowid, ${cols}) VALUES (${key('new')}, ${newVals}); END`);
  await qr.query(`CREATE TRIGGER ${table}_fts_ad AFTER DELETE ON ${table} BEGIN DELETE FROM ${fts} WHERE rowid = ${key('old')}; END`);
  await qr.query(
    `CREATE TRIGGER ${table}_fts_au AFTER UPDATE ON ${table} BEGIN DELETE FROM ${fts} WHERE rowid = ${key('old')}; ` +
      `INSERT INTO ${fts} (rowid, ${cols}) VALUES (${key('new')}, ${newVals}); END`,
  );
}

export async function dropFullTextIndex(qr: QueryRunner, table: string): Promise<void> {
  if (qr.connection.options.type === 'postgres') return; // dropped with the table
  await qr.query(`DROP TABLE IF EXISTS ${ftsTable(table)}`);
}
