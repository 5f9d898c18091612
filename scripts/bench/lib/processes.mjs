import { spawn, execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';

/**
 * Spawns a server that prints a JSON line with `listening` on stdout; resolves with its URL.
 * stderr is kept (last 4 KB) for error messages.
 */
export async function startListening(args, { env, cwd, timeoutMs = 20_000 } = {}) {
  const child = spawn(process.execPath, args, { env, cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (c) => {
    stderr = (stderr + c.toString()).slice(-4096);
  });
  const lines = createInterface({ input: child.stdout });
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no "listening" line within ${timeoutMs} ms; stderr: ${stderr}`)), timeoutMs);
    lines.on('line', (line) => {
      try {
        const msg = JSON.parse(line);
        if (msg.listening) {
          clearTimeout(timer);
          resolve(msg.listening);
        }
      } catch {
        /* not our line */
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code} before listening; stderr: ${stderr}`));
    });
  });
  return {
    child,
    url,
    stderr: () => stderr,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Resident set size of a process in bytes (Linux /proc), or NaN elsewhere. */
export function rssOf(pid) {
  try {
    const m = /VmRSS:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : NaN;
  } catch {
    return NaN;
  }
}

/** Runs the CLI once and returns stdout (throws with stderr on failure). */
export function runCli(cliPath, args, env) {
  return execFileSync(process.execPath, [cliPath, ...args], { env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}
