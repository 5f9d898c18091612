/**
 * search_test_cases on SQLite: ranked top-20 over 100,000 test cases of one project through the
 * FTS5 index (the code path the tool uses, and the whole tool call through the invoker), beside a
 * LIKE scan of the same rows in the same run. Fixed data (seeded generator), fixed query set, plus
 * the worst case (the most frequent feature word) reported on its own.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { nowMs, percentile, round } from './lib/stats.mjs';

const CASES = 100_000;
const ROUNDS = 10;
const TOP = 20;
/** What people type into a test-case search: feature words, one to three of them. */
const QUERIES = [
  'login', 'password reset', 'billing address', 'export report', 'webhook retry', 'avatar upload', 'invoice', 'search filter',
  'mobile onboarding', 'delete user', 'checkout coupon', 'two factor', 'dashboard widget', 'api token', 'notification email',
  'refund order', 'dark mode', 'csv import', 'team invite', 'subscription cancel',
];

// Titles: verb + object + context. Objects are adjective-noun pairs, so words recur the way
// feature names do. Descriptions: filler words plus a 3,000-word vocabulary drawn by Zipf's law.
const VERBS = ['log in', 'sign up', 'search', 'filter', 'sort', 'export', 'import', 'create', 'edit', 'delete', 'upload', 'download', 'share', 'archive', 'restore', 'pay', 'refund', 'reset', 'invite', 'approve', 'cancel', 'renew', 'verify', 'configure', 'enable', 'disable', 'merge', 'duplicate', 'preview', 'print', 'schedule', 'assign', 'tag', 'comment on', 'rate', 'follow', 'subscribe to', 'transfer', 'lock', 'unlock'];
const ADJ = ['billing', 'shipping', 'saved', 'default', 'shared', 'private', 'team', 'admin', 'guest', 'mobile', 'recurring', 'draft', 'archived', 'monthly', 'annual', 'bulk', 'custom', 'primary', 'secondary', 'external', 'internal', 'new', 'old', 'pending', 'failed', 'verified', 'expired', 'trial', 'premium', 'legacy'];
const NOUN = ['address', 'password', 'invoice', 'order', 'cart', 'coupon', 'report', 'csv', 'avatar', 'profile', 'project', 'comment', 'webhook', 'user', 'team', 'product', 'subscription', 'notification', 'dashboard', 'token', 'payment', 'card', 'email', 'widget', 'filter', 'theme', 'role', 'permission', 'backup', 'session', 'device', 'language', 'timezone', 'calendar', 'message', 'attachment', 'label', 'folder', 'workspace', 'plan'];
const CONTEXTS = ['as admin', 'on mobile', 'with invalid input', 'during onboarding', 'after timeout', 'with retry', 'in dark mode', 'offline', 'with two factor auth', 'from the settings page', 'via api', 'with slow network', 'in safari', 'with screen reader', 'after logout', 'with expired session', 'in another language', 'with many items', 'with no items', 'concurrently'];
const FILLER = ['the', 'a', 'and', 'then', 'is', 'to', 'of', 'with', 'on', 'it', 'user', 'page', 'click', 'should', 'see'];
const GENERIC = ['button', 'field', 'form', 'screen', 'enter', 'verify', 'open', 'display', 'message', 'error', 'value', 'list', 'item', 'select', 'save', 'shown', 'valid', 'data', 'link', 'menu', 'text', 'load', 'submit', 'confirm', 'check', 'result', 'window', 'tab', 'icon', 'close'];
const SYLLABLES = ['ka', 'lo', 'mi', 'ne', 'su', 'ra', 'ti', 'vo', 'ze', 'pa', 'do', 'gu', 'fe', 'ri', 'mo', 'xa', 'be', 'ny', 'qu', 'sta'];

/** Deterministic pseudo-random numbers (mulberry32), so every run indexes the same text. */
function rng(seed) {
  return () => {
    seed |= 0;
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export default async function run({ root, log }) {
  const { Kernel } = await import(pathToFileURL(path.join(root, 'kernel', 'dist', 'host.js')).href);
  const { fullTextSearch, queryTerms } = await import(pathToFileURL(path.join(root, 'plugins', 'projects', 'dist', 'test-cases', 'services', 'search.js')).href);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'tk-bench-search-'));
  const kernel = await Kernel.boot({ env: {}, overrides: { dataDir, log: { level: 'silent' } } });
  try {
    const storage = kernel.storage;
    const user = await kernel.users.ensureUser('bench');
    const now = new Date().toISOString();
    await storage.write((em) =>
      em.query(
        `INSERT INTO projects_projects (owner_id, name, name_normalized, key, slug, version, created_at, updated_at) VALUES (?, 'Bench', 'bench', 'BENCH', 'bench', 'v1', ?, ?)`,
        [user.id, now, now],
      ),
    );
    const [{ id: projectId }] = await storage.manager.query(`SELECT id FROM projects_projects WHERE slug = 'bench'`);

    const rand = rng(42);
    const pick = (a) => a[Math.floor(rand() * a.length)];
    // Vocabulary ranked like real test prose: generic UI words most frequent, then feature words and
    // 3,000 pseudo-words shuffled together (feature words land at mid ranks); Zipf weights 1/rank.
    const rest = [...new Set([...NOUN, ...ADJ, ...VERBS.flatMap((v) => v.split(' '))])];
    for (let i = 0; rest.length < 3000; i++) rest.push(SYLLABLES[i % 20] + SYLLABLES[Math.floor(i / 20) % 20] + SYLLABLES[Math.floor(i / 400) % 20]);
    for (let i = rest.length - 1; i > 0; i--) {
      const j = Math.floor(rand() * (i + 1));
      [rest[i], rest[j]] = [rest[j], rest[i]];
    }
    const vocab = [...GENERIC, ...rest];
    const cumulative = [];
    vocab.reduce((sum, _w, r) => (cumulative.push(sum + 1 / (r + 1)), sum + 1 / (r + 1)), 0);
    const zipf = () => {
      const x = rand() * cumulative[cumulative.length - 1];
      let lo = 0;
      let hi = cumulative.length - 1;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (cumulative[mid] < x) lo = mid + 1;
        else hi = mid;
      }
      return vocab[lo];
    };
    const t0 = nowMs();
    const db = storage.dataSource.driver.databaseConnection; // better-sqlite3 handle: a bulk load without per-row round trips
    const insert = db.prepare(
      `INSERT INTO projects_test_cases (project_id, owner_id, title, description, steps, priority, category, tags, status, version, created_at, updated_at) VALUES (?, ?, ?, ?, '[]', 'medium', ?, ?, 'draft', 'v1', ?, ?)`,
    );
    db.transaction(() => {
      for (let i = 0; i < CASES; i++) {
        const title = `${pick(VERBS)} ${pick(ADJ)} ${pick(NOUN)} ${pick(CONTEXTS)}`;
        const words = Array.from({ length: 20 + Math.floor(rand() * 20) }, () => (rand() < 0.4 ? pick(FILLER) : zipf()));
        insert.run(projectId, user.id, title, words.join(' '), pick(['Auth', 'Billing', 'Admin', 'Mobile', 'Reports']), JSON.stringify([pick(NOUN), pick(['smoke', 'regression'])]), now, now);
      }
    })();
    log?.(`search bench: ${CASES} cases indexed in ${round(nowMs() - t0, 0)} ms`);

    const select = ['id', 'title', 'priority', 'category', 'status', 'tags', 'version', 'steps'];
    const fts = (q) => fullTextSearch(storage, { table: 'projects_test_cases', columns: ['title', 'tags', 'description'], weights: [10, 5, 2], projectId, terms: queryTerms(q), mode: 'all', filters: [], select, limit: TOP });
    // LIKE cannot rank; ordering title hits first forces the same "best first" work a ranked answer needs.
    const like = (q) => {
      const terms = queryTerms(q);
      const any = terms.map(() => `(title LIKE ? OR description LIKE ? OR tags LIKE ?)`).join(' AND ');
      const params = terms.flatMap((t) => [`%${t}%`, `%${t}%`, `%${t}%`]);
      const titleHits = terms.map(() => `(title LIKE ?)`).join(' + ');
      return storage.manager.query(
        `SELECT id, title, priority, category, status, tags, version, steps FROM projects_test_cases WHERE project_id = ? AND ${any} ORDER BY (${titleHits}) DESC, id ASC LIMIT ${TOP}`,
        [projectId, ...params, ...terms.map((t) => `%${t}%`)],
      );
    };
    const caller = { userId: user.id, username: 'bench', via: 'test' };
    const tool = (q) => kernel.invoker.invoke('search_test_cases', { project_id: projectId, query: q, limit: TOP }, { caller });

    const measure = async (fn) => {
      for (const q of QUERIES) await fn(q); // warm-up
      const samples = [];
      for (let r = 0; r < ROUNDS; r++) {
        for (const q of QUERIES) {
          const s = nowMs();
          await fn(q);
          samples.push(nowMs() - s);
        }
      }
      return samples;
    };
    const ftsMs = await measure(fts);
    if (process.env.SEARCH_BENCH_DETAIL) {
      for (const q of QUERIES) {
        const [{ n }] = await storage.manager.query(`SELECT COUNT(*) AS n FROM projects_test_cases_fts WHERE projects_test_cases_fts MATCH ?`, [queryTerms(q).map((t) => `"${t}"`).join(' AND ')]);
        const s = nowMs();
        for (let i = 0; i < 5; i++) await fts(q);
        log?.(`  ${q}: ${n} matches, ${round((nowMs() - s) / 5, 2)} ms`);
      }
    }
    // The hardest query: the most frequent word, which bm25 must score in every matching case.
    const common = GENERIC[0];
    const [{ n: commonHits }] = await storage.manager.query(`SELECT COUNT(*) AS n FROM projects_test_cases_fts WHERE projects_test_cases_fts MATCH ?`, [`"${common}"`]);
    const commonMs = [];
    for (let r = 0; r < ROUNDS; r++) {
      const s = nowMs();
      await fts(common);
      commonMs.push(nowMs() - s);
    }
    const likeMs = await measure(like);
    const toolMs = await measure(tool);
    const check = await tool('password reset');
    if (!check.envelope.success || check.envelope.result.items.length === 0) throw new Error('search_test_cases returned nothing for a query that matches');

    const p95 = (s) => round(percentile(s, 95), 3);
    return [
      { name: `search FTS5 ranked top-${TOP}, ${CASES.toLocaleString('en-US')} cases, p95`, value: p95(ftsMs), unit: 'ms', target: '≤ 10', baseline: p95(likeMs), ratio: round(p95(ftsMs) / p95(likeMs), 3), note: 'baseline: LIKE scan, same data and queries' },
      { name: `search FTS5 ranked top-${TOP}, p50`, value: round(percentile(ftsMs, 50), 3), unit: 'ms' },
      { name: `search LIKE scan top-${TOP}, p95`, value: p95(likeMs), unit: 'ms' },
      { name: `search FTS5 worst case "${common}" (${Number(commonHits).toLocaleString('en-US')} matching cases), p50`, value: round(percentile(commonMs, 50), 3), unit: 'ms', note: 'bm25 scores every match; no top-k pruning in FTS5' },
      { name: 'search_test_cases tool call (invoker), p95', value: p95(toolMs), unit: 'ms', target: '≤ 10' },
    ];
  } finally {
    await kernel.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
