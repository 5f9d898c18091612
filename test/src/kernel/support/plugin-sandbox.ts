import { cpSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { findAppRoot } from '@testkeeper/kernel/host';

/** The repository root (the host package), found the same way the kernel finds it. */
export const repoRoot = findAppRoot({});

/** Source folder of the fixture plugins; tests copy them out of the workspace before loading. */
export const fixturesDir = path.join(repoRoot, 'test', 'fixtures', 'plugins');

/**
 * A temp folder laid out like a third party's install: plugin packages side by side, and
 * `node_modules/@testkeeper/kernel` linked to this repo's kernel so the plugins' peer dependency
 * resolves to the very kernel that loads them.
 */
export class PluginSandbox {
  readonly dir: string;

  constructor(prefix = 'tk-plugins-') {
    this.dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), prefix)));
    const scope = path.join(this.dir, 'node_modules', '@testkeeper');
    mkdirSync(scope, { recursive: true });
    symlinkSync(path.join(repoRoot, 'kernel'), path.join(scope, 'kernel'), 'dir');
  }

  /** Copies `test/fixtures/plugins/<name>` into the sandbox and returns the copy's path. */
  copyFixture(name: string): string {
    const to = path.join(this.dir, name);
    cpSync(path.join(fixturesDir, name), to, { recursive: true });
    return to;
  }

  /** A fresh, empty data directory inside the sandbox. */
  dataDir(): string {
    return mkdtempSync(path.join(this.dir, 'data-'));
  }

  remove(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}
