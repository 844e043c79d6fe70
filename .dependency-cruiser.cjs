/**
 * The layer rule of docs/architecture.md as a machine check (issue 14, point 7).
 * Run: npm run lint:deps (part of npm test).
 *
 * Layers, arrows pointing down:
 *   entries   src-main/index.ts, headless.ts, cli/, desktop/, preload/, writer/ (the writer thread)
 *   assembly  src-main/server/, src-main/service.ts
 *   modules   src-main/modules/<domain>/
 *   kit       src-main/kit/
 *   db, lib   src-main/db/, src-main/lib/
 *   shared    src-shared/
 *   renderer  src-renderer/ (beside main: shared only, plus the AppRouter type)
 *
 * Test files (*.test.ts[x]) are left out of the layer rules: a test assembles its fixture from any
 * layer (a module's test may start the whole service). They are NOT left out of cycle detection:
 * a test file itself cannot close a cycle (nothing imports it), so including it costs nothing, and
 * the helpers it pulls in (test/helpers/**) can: a helper that imports service.ts and is imported
 * back by production code would be a real cycle, and we want to see it.
 */

/** Test files: exempt from the layer rules only. */
const TEST = '\\.test\\.tsx?$'

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment:
        'A cycle between modules. Type-only edges count too: they are how a layer leaks upward ' +
        'before it shows at run time.',
      from: { path: '^(src-main|src-renderer|src-shared)/' },
      to: { circular: true },
    },

    // ---- modules ----
    {
      name: 'modules-not-to-assembly-or-entries',
      severity: 'error',
      comment:
        'A module (repo, service, router, routes) must not reach up into the assembly (server/, ' +
        'service.ts) or the entries (cli/, desktop/, preload/, writer/, index.ts, headless.ts).',
      from: { path: '^src-main/modules/', pathNot: TEST },
      to: {
        path: '^src-main/(server/|service\\.ts$|cli/|desktop/|preload/|writer/|index\\.ts$|headless\\.ts$)',
      },
    },
    {
      name: 'modules-cross-only-service-or-repo',
      severity: 'error',
      comment:
        "A module may use another module's services and repos, not its transport (router, routes): " +
        'mounting routers is the assembly\'s job.',
      from: { path: '^src-main/modules/([^/]+)/', pathNot: TEST },
      to: {
        path: '^src-main/modules/[^/]+/[^/]+\\.(router|routes)\\.ts$',
        pathNot: '^src-main/modules/$1/',
      },
    },

    // ---- kit ----
    {
      name: 'kit-only-shared-and-third-party',
      severity: 'error',
      comment:
        'kit/ (access, errors table, tRPC builders, HTTP helpers) sits below the modules and beside ' +
        'db: it imports src-shared and third-party packages only.',
      from: { path: '^src-main/kit/', pathNot: TEST },
      to: { path: '^(src-main/(?!kit/)|src-renderer/)' },
    },

    // ---- db, lib ----
    {
      name: 'db-lib-only-shared-and-third-party',
      severity: 'error',
      comment:
        'db/ and lib/ are the floor of src-main: they import each other, src-shared and third-party ' +
        'packages only (not kit, modules, server, service.ts, seed or the entries).',
      from: { path: '^src-main/(db|lib)/', pathNot: TEST },
      to: { path: '^(src-main/(?!(db|lib)/)|src-renderer/)' },
    },

    // ---- assembly ----
    {
      name: 'assembly-not-to-entries',
      severity: 'error',
      comment: 'server/ and service.ts are assembled by the entries, never the other way round.',
      from: { path: '^src-main/(server/|service\\.ts$)', pathNot: TEST },
      to: { path: '^src-main/(cli/|desktop/|preload/|index\\.ts$|headless\\.ts$)' },
    },

    // ---- shared ----
    {
      name: 'shared-not-to-main-or-renderer',
      severity: 'error',
      comment: 'src-shared is the bottom of both sides: it imports nothing from src-main or src-renderer.',
      from: { path: '^src-shared/' },
      to: { path: '^(src-main|src-renderer)/' },
    },
    {
      name: 'shared-no-node-builtins',
      severity: 'error',
      comment: 'src-shared runs in the renderer too: no Node built-ins (node:fs, path, ...).',
      from: { path: '^src-shared/', pathNot: TEST },
      to: { dependencyTypes: ['core'] },
    },

    // ---- renderer ----
    {
      name: 'renderer-not-to-main',
      severity: 'error',
      comment:
        'The renderer imports src-shared and itself. The one exception is the type-only AppRouter ' +
        'import in src-renderer/lib/trpc.ts (next rules).',
      from: { path: '^src-renderer/', pathNot: `^src-renderer/lib/trpc\\.ts$|${TEST}` },
      to: { path: '^src-main/' },
    },
    {
      name: 'renderer-trpc-only-app-router',
      severity: 'error',
      comment: 'src-renderer/lib/trpc.ts may reach src-main/server/app-router.ts and nothing else in src-main.',
      from: { path: '^src-renderer/lib/trpc\\.ts$' },
      to: { path: '^src-main/', pathNot: '^src-main/server/app-router\\.ts$' },
    },
    {
      name: 'renderer-trpc-app-router-type-only',
      severity: 'error',
      comment:
        "The AppRouter edge must be type-only (import type ...): tRPC's inferred types, erased at " +
        'build, so no main-process code is bundled into the console.',
      from: { path: '^src-renderer/lib/trpc\\.ts$' },
      to: { path: '^src-main/server/app-router\\.ts$', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'main-not-to-renderer',
      severity: 'error',
      comment: 'The main process never imports the console.',
      from: { path: '^(src-main|src-shared)/' },
      to: { path: '^src-renderer/' },
    },

    {
      name: 'not-to-unresolvable',
      severity: 'error',
      comment: 'An import that does not resolve would make every rule above blind to it.',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Resolve .ts/.tsx imports written without an extension, as the TypeScript compiler does.
    tsConfig: { fileName: 'tsconfig.json' },
    // See `import type` edges: they are erased at build, but they are how the renderer's one
    // exception (the AppRouter type) is told apart, and how an upward type leak is caught.
    tsPreCompilationDeps: true,
    enhancedResolveOptions: {
      extensions: ['.ts', '.tsx', '.mts', '.js', '.mjs', '.cjs', '.json'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      exportsFields: ['exports'],
      mainFields: ['module', 'main', 'types', 'typings'],
    },
    reporterOptions: {
      text: { highlightFocused: true },
    },
  },
}
