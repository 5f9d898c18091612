import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Framework } from '../frameworks/catalog.js';
import { writeScriptFile } from '../frameworks/framework-files.js';
import { frameworkDir, scriptFilePath } from '../frameworks/layout.js';

/**
 * Writes the script's test file only when its content changed: rewriting an unchanged file bumps
 * its mtime, and cargo and go then rebuild the test binary on every run.
 */
export async function writeIfChanged(dataDir: string, framework: Framework, script: { id: number; project_id: number; name: string; code: string }): Promise<string> {
  const rel = scriptFilePath(framework, script);
  const expected = script.code.endsWith('\n') ? script.code : `${script.code}\n`;
  const current = await readFile(path.join(frameworkDir(dataDir, script.project_id, framework), rel), 'utf8').catch(() => null);
  if (current === expected) return rel;
  return (await writeScriptFile(dataDir, script.project_id, framework, script)).file;
}
