import { existsSync } from 'node:fs';
import path from 'node:path';
import { invalidArgument } from '@testkeeper/kernel';

/**
 * Test files named relative to the framework directory, checked to stay inside it and to exist.
 * Returned with forward slashes and without a leading `./`.
 */
export function checkedTestFiles(frameworkDir: string, files: string[]): string[] {
  const root = path.resolve(frameworkDir);
  return files.map((f) => {
    const abs = path.resolve(root, f);
    if (abs !== root && !abs.startsWith(root + path.sep)) {
      throw invalidArgument(`Test file ${f} is outside the framework directory`, 'Pass paths relative to the framework directory.');
    }
    if (!existsSync(abs)) throw invalidArgument(`Test file ${f} does not exist in the framework directory`, 'Add the script to the framework first (add_script_to_framework).');
    return path.relative(root, abs).split(path.sep).join('/');
  });
}
