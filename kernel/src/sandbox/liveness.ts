/** Signal 0 checks existence without sending anything; EPERM means it exists but is someone else's. */
function exists(target: number): boolean {
  try {
    process.kill(target, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Whether process `pid` still exists. */
export const isAlive = (pid: number): boolean => exists(pid);

/** Whether any process of group `pgid` still exists. */
export const groupExists = (pgid: number): boolean => exists(-pgid);
