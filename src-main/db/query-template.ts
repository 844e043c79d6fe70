import { type Compilable, CompiledQuery } from 'kysely'

/** A mark standing for a parameter while the template is compiled: no real value looks like it. */
const markOf = (name: string) => `\u0000template parameter ${name}\u0000`

type Slot = { name: string } | { constant: unknown }

/**
 * A query whose SQL text depends only on its shape, compiled once: each call only fills in the
 * parameters. Building and compiling a kysely query costs about as much as a small page's SQL
 * (issue 19's profile of a sessions page: kysely's visitors and freezes, 9% of the main thread),
 * and a hot read with a fixed shape does not need it every time. `build` must use its parameters
 * as values only (bound, never branched on): it runs once, on marks.
 */
export function queryTemplate<P extends Record<string, string | number>, R>(
  names: readonly (keyof P & string)[],
  build: (params: P) => Compilable<R>,
): (params: P) => CompiledQuery<R> {
  let template: { sql: string; slots: Slot[] } | null = null
  return (params) => {
    if (!template) {
      const marks = Object.fromEntries(names.map((name) => [name, markOf(name)])) as unknown as P
      const compiled = build(marks).compile()
      const slots = compiled.parameters.map((value): Slot => {
        const name = names.find((n) => value === markOf(n))
        return name ? { name } : { constant: value }
      })
      const unused = names.filter((n) => !slots.some((s) => 'name' in s && s.name === n))
      if (unused.length > 0) throw new Error(`query template: ${unused.join(', ')} not bound as a parameter`)
      template = { sql: compiled.sql, slots }
    }
    const parameters = template.slots.map((slot) => ('name' in slot ? params[slot.name] : slot.constant))
    return CompiledQuery.raw(template.sql, parameters) as CompiledQuery<R>
  }
}
