import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The app root holds the host package.json (`"testkeeper": {"host": true}`), config/ and the
 * default data directory. Found by walking up from this file, so the CLI works from any cwd;
 * TESTKEEPER_HOME overrides it.
 */
export function findAppRoot(env: NodeJS.ProcessEnv = process.env): string {
  if (env.TESTKEEPER_HOME) return path.resolve(env.TESTKEEPER_HOME);
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const file = path.join(dir, 'package.json');
    if (existsSync(file)) {
      try {
        const pkg = JSON.parse(readFileSync(file, 'utf8'));
        if (pkg?.testkeeper?.host === true) return dir;
      } catch {
        /* not ours; keep walking */
      }
    }
    const up = path.dirname(dir);
    if (up === dir) return process.cwd();
    dir = up;
  }
}

export function kernelVersion(): { version: string; hostApi: string } {
  const file = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../package.json');
  const pkg = JSON.parse(readFileSync(file, 'utf8'));
  return { version: pkg.version, hostApi: pkg.testkeeper.hostApi };
}
