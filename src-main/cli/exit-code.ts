/**
 * A command that ends with a documented exit code other than 0, 1 or 2 after printing its own
 * answer (`db check` exits 3 for a damaged store): main() returns the code and prints nothing more.
 */
export class CommandExit extends Error {
  constructor(readonly code: number) {
    super(`exit ${code}`)
  }
}

/** `callscope db check`: the store is damaged (0: healthy, 1: the check itself failed). */
export const EXIT_DAMAGED = 3
