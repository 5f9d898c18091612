import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
// Kernel internals: the registry is not part of the plugin API.
import { RunRegistry } from '../../../kernel/dist/sandbox/run-registry.js';
import { isAlive, waitGone } from './processes.js';

/** A pid that existed a moment ago and is gone now. */
function deadPid(): number {
  return spawnSync('true').pid!;
}

/** A `sleep` in its own process group (as the sandbox starts test code). */
function detachedSleep(): number {
  const child = spawn('sleep', ['300'], { detached: true, stdio: 'ignore' });
  child.unref();
  return child.pid!;
}

describe('sandbox run registry (crash recovery)', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tk-runs-'));
  const started: number[] = [];
  after(() => {
    for (const pid of started) {
      try {
        process.kill(-pid, 'SIGKILL');
      } catch {
        /* already gone */
      }
    }
    rmSync(dir, { recursive: true, force: true });
  });

  const entry = (pgid: number) => JSON.parse(readFileSync(path.join(dir, `${pgid}.json`), 'utf8'));

  it('kills the group of a run whose server died, and forgets it', async () => {
    const registry = new RunRegistry(dir);
    const pgid = detachedSleep();
    started.push(pgid);
    registry.add(pgid);
    writeFileSync(path.join(dir, `${pgid}.json`), JSON.stringify({ ...entry(pgid), server_pid: deadPid() }));
    expect(registry.reapOrphans()).to.deep.equal([pgid]);
    expect(await waitGone(pgid)).to.equal(true);
    expect(readdirSync(dir)).to.deep.equal([]);
  });

  it('leaves runs of a live server alone', () => {
    const registry = new RunRegistry(dir);
    const pgid = detachedSleep();
    started.push(pgid);
    registry.add(pgid); // recorded by this (live) process
    expect(registry.reapOrphans()).to.deep.equal([]);
    expect(isAlive(pgid)).to.equal(true);
    registry.remove(pgid);
  });

  it('never kills a process that merely reuses a recorded pid (start time differs)', () => {
    const registry = new RunRegistry(dir);
    const pgid = detachedSleep();
    started.push(pgid);
    registry.add(pgid);
    writeFileSync(path.join(dir, `${pgid}.json`), JSON.stringify({ ...entry(pgid), server_pid: deadPid(), start_ticks: '1' }));
    expect(registry.reapOrphans()).to.deep.equal([]);
    expect(isAlive(pgid)).to.equal(true);
    expect(readdirSync(dir)).to.deep.equal([]);
  });
});
