import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'

/** Clock ticks per second of /proc/<pid>/stat's times (USER_HZ: 100 on every Linux build in use). */
const TICKS_PER_SECOND = 100

/**
 * CPU time a process has used so far, in ms, over all its threads (the main thread, the readers,
 * the writer, user and system time): /proc on Linux, ps elsewhere (whole seconds there).
 */
export function cpuMs(pid: number): number {
  try {
    return statCpuMs(`/proc/${pid}/stat`)
  } catch {
    const [minutes, seconds] = execFileSync('ps', ['-o', 'time=', '-p', String(pid)], { encoding: 'utf8' }).trim().split(':').slice(-2).map(Number)
    return ((minutes ?? 0) * 60 + (seconds ?? 0)) * 1000
  }
}

/**
 * CPU time of the process's main thread alone (the thread whose id is the process's), in ms, or
 * null where /proc is missing. The main thread answers every request, so its time per request
 * bounds the throughput however many cores the readers get.
 */
export function mainThreadCpuMs(pid: number): number | null {
  try {
    return statCpuMs(`/proc/${pid}/task/${pid}/stat`)
  } catch {
    return null
  }
}

/** utime + stime of a /proc stat file, in ms. */
function statCpuMs(path: string): number {
  const stat = readFileSync(path, 'utf8')
  // Fields after the command name, which is in parentheses and may hold spaces.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  const [utime, stime] = [Number(fields[11]), Number(fields[12])]
  return ((utime + stime) * 1000) / TICKS_PER_SECOND
}
