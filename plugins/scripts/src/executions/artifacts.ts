import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';

/** `<dataDir>/executions/<projectId>/<execution_id>/`: the run's log files. */
export function executionDir(dataDir: string, projectId: number, executionId: string): string {
  return path.join(path.resolve(dataDir), 'executions', String(projectId), executionId);
}

/** `<dataDir>/run-cache/<projectId>/`: build caches (cargo target dir, Go build cache) kept between runs. */
export function projectCacheDir(dataDir: string, projectId: number): string {
  return path.join(path.resolve(dataDir), 'run-cache', String(projectId));
}

export function sha256(...parts: string[]): string {
  const h = createHash('sha256');
  for (const p of parts) h.update(p).update('\0');
  return h.digest('hex');
}

const SKIP_DIRS = new Set(['target', 'node_modules', '__pycache__', '.git', '.pytest_cache', 'test-results']);

/** Per framework directory: the files' stat signature at the last hash, and that hash. */
const treeHashes = new Map<string, { signature: string; digest: string }>();
const MAX_CACHED_TREES = 500;

/**
 * A hash of every source file of a framework directory: the revision that was run. The files are
 * read again only when a file was added, removed or changed (size, mtime, ctime or inode differ,
 * as git and make tell): warm runs of an unchanged directory only list and stat it.
 */
export async function hashTree(root: string): Promise<string | null> {
  if (!existsSync(root)) return null;
  const files: string[] = [];
  const stats: string[] = [];
  const walk = async (rel: string): Promise<void> => {
    const entries = (await readdir(path.join(root, rel), { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name));
    for (const e of entries) {
      const child = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) {
        if (!SKIP_DIRS.has(e.name)) await walk(child);
      } else if (e.isFile()) {
        const st = await stat(path.join(root, child), { bigint: true });
        files.push(child);
        stats.push(`${child}\0${st.size}\0${st.mtimeNs}\0${st.ctimeNs}\0${st.ino}`);
      }
    }
  };
  await walk('');
  const signature = stats.join('\n');
  const cached = treeHashes.get(root);
  if (cached?.signature === signature) return cached.digest;
  const h = createHash('sha256');
  for (const child of files) h.update(child).update('\0').update(await readFile(path.join(root, child))).update('\0');
  const digest = h.digest('hex');
  if (treeHashes.size >= MAX_CACHED_TREES) treeHashes.delete(treeHashes.keys().next().value!);
  treeHashes.set(root, { signature, digest });
  return digest;
}
