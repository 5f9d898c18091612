import { mkdir, open, rm, type FileHandle } from 'node:fs/promises';
import path from 'node:path';

/**
 * The stdout and stderr log files of each run of an execution. Directory and files are created
 * while the tests run: creating a file waits on the file system's journal, which a build keeps
 * busy, so only the writes are left for after the run.
 */
export class RunLogFiles {
  private readonly runs: Array<{ files: [string, string]; handles: Promise<FileHandle[]>; used: boolean }>;

  /** `labels`: one per run, e.g. `1-rust_cargo`. */
  constructor(dir: string, labels: string[]) {
    const dirReady = mkdir(dir, { recursive: true });
    this.runs = labels.map((label) => {
      const files: [string, string] = [path.join(dir, `${label}.stdout.log`), path.join(dir, `${label}.stderr.log`)];
      const handles = dirReady.then(() => openAll(files));
      // Awaited later (write or discard); this only keeps an early failure from being unhandled.
      handles.catch(() => undefined);
      return { files, handles, used: false };
    });
  }

  /** The paths of run `index`'s logs. */
  files(index: number): string[] {
    return [...this.runs[index]!.files];
  }

  /** Writes run `index`'s logs and closes them; settles when both are on disk. */
  async write(index: number, stdout: string, stderr: string): Promise<void> {
    const run = this.runs[index]!;
    run.used = true;
    const [out, err] = await run.handles;
    try {
      await Promise.all([out!.writeFile(stdout, 'utf8'), err!.writeFile(stderr, 'utf8')]);
    } finally {
      await Promise.all([out!.close(), err!.close()]);
    }
  }

  /** Closes and removes the files of runs that never got written (the execution stopped early). */
  async discardUnwritten(): Promise<void> {
    await Promise.all(
      this.runs
        .filter((r) => !r.used)
        .map(async (r) => {
          r.used = true;
          const handles = await r.handles.catch(() => []);
          await Promise.all(handles.map((h) => h.close().catch(() => undefined)));
          await Promise.all(r.files.map((f) => rm(f, { force: true }).catch(() => undefined)));
        }),
    );
  }
}

/** Opens every file for writing; on a failure the ones already open are closed again. */
async function openAll(files: string[]): Promise<FileHandle[]> {
  const opened = await Promise.allSettled(files.map((f) => open(f, 'w')));
  const failed = opened.find((o): o is PromiseRejectedResult => o.status === 'rejected');
  const handles = opened.flatMap((o) => (o.status === 'fulfilled' ? [o.value] : []));
  if (failed) {
    await Promise.all(handles.map((h) => h.close().catch(() => undefined)));
    throw failed.reason;
  }
  return handles;
}
