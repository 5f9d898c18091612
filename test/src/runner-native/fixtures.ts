import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** test/fixtures/native, found from the compiled test file (test/dist/...). */
export const NATIVE_FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../fixtures/native');

export function captured(name: string): string {
  return readFileSync(path.join(NATIVE_FIXTURES, 'captured', name), 'utf8');
}

const copies: string[] = [];

/** A fresh copy of a fixture project, so runs never write into the repository. */
export function copyFixture(name: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), `tk-fx-${name}-`));
  cpSync(path.join(NATIVE_FIXTURES, name), dir, { recursive: true });
  copies.push(dir);
  return dir;
}

export function removeFixtureCopies(): void {
  for (const dir of copies.splice(0)) rmSync(dir, { recursive: true, force: true });
}
