import { mkdtempSync, readdirSync, rmdirSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { isAlive } from './liveness.js';

/**
 * Per-run TMPDIRs: a fresh, empty directory for every run, removed after it. Making a directory
 * waits on the file system's journal, which a running build keeps busy, so the next run's
 * directory is made ahead, while a run goes on; it is never given to more than one run. Ones made
 * ahead and never used are removed when the process exits. Names carry the server's pid, so a
 * server that starts after a crash removes what a dead one left (removeOrphanRunTmpDirs).
 */
export class RunTmpDirs {
  private spare: string | null = null;
  private making = false;

  /** A fresh, empty directory for one run. Sync: the child cannot start before it exists. */
  take(): string {
    const spare = this.spare;
    this.spare = null;
    if (spare) {
      unused.delete(spare);
      if (path.dirname(spare) === os.tmpdir() && isEmptyDir(spare)) return spare;
      void removeRunTmpDir(spare);
    }
    return mkdtempSync(runTmpPrefix());
  }

  /** Makes the next run's directory in the background (call it once a run has started). */
  prepareNext(): void {
    if (this.spare || this.making) return;
    this.making = true;
    mkdtemp(runTmpPrefix()).then(
      (dir) => {
        this.making = false;
        this.spare = dir;
        trackUnused(dir);
      },
      () => {
        this.making = false; // the next run makes its own
      },
    );
  }
}

const PREFIX = 'tk-run-';

function runTmpPrefix(): string {
  return path.join(os.tmpdir(), `${PREFIX}${process.pid}-`);
}

/**
 * Removes the TMPDIRs of server processes that are gone (killed during a run, or with one made
 * ahead). Returns how many it removed; another user's or a live process's directories stay.
 */
export async function removeOrphanRunTmpDirs(parent = os.tmpdir()): Promise<number> {
  const names = await readdir(parent).catch(() => [] as string[]);
  let removed = 0;
  for (const name of names) {
    const m = /^tk-run-(\d+)-/.exec(name);
    if (!m || Number(m[1]) === process.pid || isAlive(Number(m[1]))) continue;
    try {
      await rm(path.join(parent, name), { recursive: true });
      removed++;
    } catch {
      /* not ours to remove (another user's), or already gone */
    }
  }
  return removed;
}

/** Most runs leave their TMPDIR empty: one rmdir then; a full one is removed asynchronously. */
export async function removeRunTmpDir(dir: string): Promise<void> {
  try {
    rmdirSync(dir);
    return;
  } catch {
    /* not empty (or already gone): the recursive removal below handles both */
  }
  await rm(dir, { recursive: true, force: true }).catch(() => undefined);
}

function isEmptyDir(dir: string): boolean {
  try {
    return readdirSync(dir).length === 0;
  } catch {
    return false; // gone (a tmp cleaner) or unreadable
  }
}

/** Directories made ahead and not handed out yet, in this process. */
const unused = new Set<string>();
let exitHook = false;

function trackUnused(dir: string): void {
  unused.add(dir);
  if (exitHook) return;
  exitHook = true;
  process.once('exit', () => {
    for (const d of unused) {
      try {
        rmdirSync(d);
      } catch {
        /* already gone */
      }
    }
  });
}
