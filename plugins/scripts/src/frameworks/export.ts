import { createWriteStream } from 'node:fs';
import { mkdtemp, readdir, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import yazl from 'yazl';

/** Build output and caches never belong in an export. */
const SKIP = new Set(['node_modules', 'target', '__pycache__', '.pytest_cache', 'test-results', 'playwright-report']);

async function listFiles(root: string, rel = ''): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(path.join(root, rel), { withFileTypes: true })) {
    if (SKIP.has(entry.name) || entry.name.endsWith('.tmp')) continue;
    const child = rel ? `${rel}/${entry.name}` : entry.name;
    if (entry.isDirectory()) out.push(...(await listFiles(root, child)));
    else if (entry.isFile()) out.push(child);
  }
  return out.sort();
}

/**
 * Zips a framework directory into a new temporary file. Entries sit under one top folder
 * (`<folder>/...`) so unpacking never scatters files into the current directory.
 */
export async function zipDirectory(dir: string, folder: string): Promise<{ path: string; size_bytes: number; files: string[] }> {
  const files = await listFiles(dir);
  const outDir = await mkdtemp(path.join(os.tmpdir(), 'testkeeper-export-'));
  const zipPath = path.join(outDir, `${folder}.zip`);
  const zip = new yazl.ZipFile();
  for (const rel of files) zip.addFile(path.join(dir, rel), `${folder}/${rel}`);
  zip.end();
  await pipeline(zip.outputStream, createWriteStream(zipPath));
  return { path: zipPath, size_bytes: (await stat(zipPath)).size, files };
}
