/** Whether a process with this id still runs (EPERM: it does, owned by someone else). */
export function isProcessAlive(pid: number | null): boolean {
  if (pid === null) return false
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/** A run recorded as "running" by a process that is not this one and no longer exists: it was killed or crashed. */
export function isOrphanedRun(pid: number | null): boolean {
  return pid !== process.pid && !isProcessAlive(pid)
}
