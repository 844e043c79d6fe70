import { execFileSync } from 'node:child_process'
import { closeSync, mkdtempSync, openSync, readdirSync, rmSync, statfsSync, writeSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll } from 'vitest'

/**
 * A small filesystem of its own for a test file (issue 36): a tmpfs mounted by the test, which a
 * store on it fills for real, as a laptop's disk does. Mounting needs root, as CI runs here;
 * elsewhere `canMountSmallDisk` is false and the fault tests say so as skipped.
 */
export const canMountSmallDisk = process.platform === 'linux' && process.getuid?.() === 0

export interface SmallDisk {
  /** The mounted folder: put the store here. */
  dir: string
  /** Bytes free on it now. */
  free(): number
  /** Fills it until `leaveBytes` are free (a filler file beside the store). */
  fill(leaveBytes: number): void
  /** Deletes the filler: the room a user makes. */
  makeRoom(): void
  /** Deletes everything on it: the next test starts from an empty disk. */
  clear(): void
}

const FILLER = '.filler'

/** Mounts a tmpfs of `sizeBytes` for the test file; unmounted after it. */
export function smallDisk(sizeBytes: number): SmallDisk {
  const dir = mkdtempSync(join(tmpdir(), 'callscope-small-disk-'))
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeBytes}`, 'tmpfs', dir])
  afterAll(() => {
    execFileSync('umount', ['-l', dir])
    rmSync(dir, { recursive: true, force: true })
  })
  const free = () => {
    const s = statfsSync(dir)
    return Number(s.bavail) * Number(s.bsize)
  }
  return {
    dir,
    free,
    fill(leaveBytes) {
      const fd = openSync(join(dir, FILLER), 'a')
      try {
        const block = Buffer.alloc(1 << 16, 0x5a)
        for (let room = free() - leaveBytes; room > 0; room = free() - leaveBytes) {
          writeSync(fd, block, 0, Math.min(block.length, room))
        }
      } finally {
        closeSync(fd)
      }
    },
    makeRoom() {
      rmSync(join(dir, FILLER), { force: true })
    },
    clear() {
      for (const entry of readdirSync(dir)) rmSync(join(dir, entry), { recursive: true, force: true })
    },
  }
}
