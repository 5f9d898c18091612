import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Framework } from './catalog.js';
import { belongsToScript, frameworkDir, scriptFilePath } from './layout.js';
import { scaffoldFiles } from './scaffold.js';

/** Writes a file via a temporary sibling and a rename, so a reader never sees half a file. */
async function writeAtomic(file: string, content: string): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  // Unique per write: two requests may scaffold the same framework at the same moment.
  const tmp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  await writeFile(tmp, content, 'utf8');
  await rename(tmp, file);
}

/** Creates the framework's scaffold when missing; returns whether it was created now. */
export async function ensureFramework(dataDir: string, projectId: number, framework: Framework): Promise<{ dir: string; created: boolean }> {
  const dir = frameworkDir(dataDir, projectId, framework);
  const marker = path.join(dir, 'README.md');
  if (existsSync(marker)) return { dir, created: false };
  for (const [rel, content] of Object.entries(scaffoldFiles(framework, projectId))) {
    const file = path.join(dir, rel);
    if (!existsSync(file)) await writeAtomic(file, content);
  }
  return { dir, created: true };
}

/**
 * Writes a script's test file. Files this script left under an older name (it was renamed) are
 * removed first, so re-adding never leaves two copies of one test.
 */
export async function writeScriptFile(
  dataDir: string,
  projectId: number,
  framework: Framework,
  script: { id: number; name: string; code: string },
): Promise<{ file: string; replaced: string[] }> {
  const dir = frameworkDir(dataDir, projectId, framework);
  const rel = scriptFilePath(framework, script);
  const replaced = (await scriptEntries(dir, framework, script.id)).filter((e) => rel !== e && !rel.startsWith(`${e}/`));
  for (const old of replaced) await rm(path.join(dir, old), { recursive: true, force: true });
  const content = script.code.endsWith('\n') ? script.code : `${script.code}\n`;
  await writeAtomic(path.join(dir, rel), content);
  return { file: rel, replaced };
}

/** Removes a script's test files from every framework of its project (after delete_script). */
export async function removeScriptFiles(dataDir: string, projectId: number, frameworks: readonly Framework[], scriptId: number): Promise<void> {
  for (const framework of frameworks) {
    const dir = frameworkDir(dataDir, projectId, framework);
    for (const entry of await scriptEntries(dir, framework, scriptId)) await rm(path.join(dir, entry), { recursive: true, force: true });
  }
}

/** Entries under `tests/` (files, or Go package directories) that belong to one script. */
async function scriptEntries(dir: string, framework: Framework, scriptId: number): Promise<string[]> {
  const tests = path.join(dir, 'tests');
  if (!existsSync(tests)) return [];
  const names = await readdir(tests);
  return names.map((n) => `tests/${n}`).filter((rel) => belongsToScript(framework, rel, scriptId));
}
