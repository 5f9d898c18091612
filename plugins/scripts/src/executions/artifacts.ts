import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** `<dataDir>/executions/<projectId>/<execution_id>/`: the run's log files. */
export function executionDir(dataDir: string, projectId: number, executionId: string): string {
  return path.join(path.resolve(dataDir), 'executions', String(projectId), executionId);
}

/** `<dataDir>/run-cache/<projectId>/`: build caches (cargo target dir, Go build cache) kept between runs. */
export function projectCacheDir(dataDir: string, projectId: number): string {
  return path.join(path.resolve(dataDir), 'run-cache', String(projectId));
}

export async function writeRunLogs(dir: string, label: string, stdout: string, stderr: string): Promise<string[]> {
  await mkdir(dir, { recursive: true });
  const out = path.join(dir, `${label}.stdout.log`);
  const err = path.join(dir, `${label}.stderr.log`);
  await writeFile(out, stdout, 'utf8');
  await writeFile(err, stderr, 'utf8');
  return [out, err];
}

export function sha256(...parts: string[]): string {
  const h = createHash('sha256');
  for (const p of parts) h.update(p).update('\0');
  return h.digest('hex');
}

const SKIP_DIRS = new Set(['target', 'node_modules', '__pycache__', '.pytest_cache', '.git', 'test-results']);

/** A hash of every source file of a framework directory: the revision that was run. */
export async function hashTree(root: string): Promise<string | null> {
  if (!existsSync(root)) return null;
  const h = createHash('sha256');
  const walk = async (rel: string): Promise<void> => {
    const entries = (await readdir(path.join(root, rel), { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name));
    for (const e of entries) {
      const child = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) {
        if (!SKIP_DIRS.has(e.name)) await walk(child);
      } else if (e.isFile()) {
        h.update(child).update('\0').update(await readFile(path.join(root, child))).update('\0');
      }
    }
  };
  await walk('');
  return h.digest('hex');
}
