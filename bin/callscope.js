#!/usr/bin/env node
// Runs the TypeScript CLI through tsx's loader, so `npx callscope` needs no build step.
import { register } from 'tsx/esm/api'

register()
const { main } = await import('../src-main/cli/index.ts')
const code = await main(process.argv.slice(2))
// serve keeps running: only set the code, let the event loop decide when the process ends.
process.exitCode = code
