import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { killProcessGroup } from './kill.js';
import { groupExists, isAlive } from './liveness.js';

interface RunEntry {
  pgid: number;
  server_pid: number;
  /** Start time of the group leader (Linux /proc), so a reused pid is never killed. */
  start_ticks: string | null;
}

/**
 * One small file per running sandboxed process group, removed when the run ends. If the server is
 * killed (kill -9) the files stay; the next start kills the groups they name, so no test process
 * outlives a crashed server for long.
 */
export class RunRegistry {
  constructor(private readonly dir: string) {
    mkdirSync(dir, { recursive: true });
  }

  /** Best effort: a full disk must not stop a run, it only loses crash recovery for it. */
  add(pgid: number): void {
    const entry: RunEntry = { pgid, server_pid: process.pid, start_ticks: startTicks(pgid) };
    try {
      writeFileSync(this.file(pgid), JSON.stringify(entry));
    } catch {
      /* see above */
    }
  }

  remove(pgid: number): void {
    try {
      rmSync(this.file(pgid), { force: true });
    } catch {
      /* a leftover entry is harmless: its server is alive or its group is gone */
    }
  }

  /** Kills the groups left by a server process that is gone. Returns the group ids it killed. */
  reapOrphans(): number[] {
    const killed: number[] = [];
    for (const name of readdirSync(this.dir)) {
      if (!name.endsWith('.json')) continue;
      let entry: RunEntry;
      try {
        entry = JSON.parse(readFileSync(path.join(this.dir, name), 'utf8')) as RunEntry;
      } catch {
        rmSync(path.join(this.dir, name), { force: true });
        continue;
      }
      if (entry.server_pid === process.pid || isAlive(entry.server_pid)) continue; // its server still runs
      const leaderTicks = startTicks(entry.pgid);
      const sameLeader = leaderTicks !== null && leaderTicks === entry.start_ticks;
      // Leader gone: the group may live on in its descendants; a group id is not reused while it exists.
      if (sameLeader || (leaderTicks === null && groupExists(entry.pgid))) {
        killProcessGroup(entry.pgid);
        killed.push(entry.pgid);
      }
      rmSync(path.join(this.dir, name), { force: true });
    }
    return killed;
  }

  private file(pgid: number): string {
    return path.join(this.dir, `${pgid}.json`);
  }
}

/** Field 22 of /proc/<pid>/stat (start time in clock ticks); null where /proc is unavailable. */
function startTicks(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}
