/** The text of one top-level element of a JSON array, with the line it starts on. */
export interface ArrayElement {
  line: number
  text: string
}

/** The file is not a JSON array at all (or breaks off): nothing after this point can be read. */
export class ArrayFormatError extends Error {
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(`line ${line}: ${message}`)
  }
}

const WS = new Set([0x20, 0x09, 0x0a, 0x0d])
const [QUOTE, BACKSLASH, COMMA, LF] = [0x22, 0x5c, 0x2c, 0x0a]
const OPENERS = new Set([0x7b, 0x5b]) // { [
const CLOSERS = new Set([0x7d, 0x5d]) // } ]
const ARRAY_END = 0x5d

type State = 'start' | 'first-value' | 'value' | 'in-value' | 'after-value' | 'done'

/**
 * Splits a JSON array arriving in chunks into the texts of its elements, so a file of any size is
 * read with memory for one element: what `GET /logs/calls` returns can be imported as it is.
 * It only tracks strings and nesting; each element's text is then parsed with JSON.parse, so a
 * malformed element is one refused record, not the end of the import.
 */
export class JsonArraySplitter {
  private state: State = 'start'
  private line = 1
  private startLine = 0
  private pending = ''
  private depth = 0
  private inString = false
  private escaped = false
  private scalar = false

  private failure: ArrayFormatError | null = null

  /**
   * The elements completed by this chunk. A format error is raised on the next call (push or
   * end), so the elements before it in the same chunk are still delivered.
   */
  push(chunk: string): ArrayElement[] {
    if (this.failure) throw this.failure
    const out: ArrayElement[] = []
    try {
      this.scan(chunk, out)
    } catch (error) {
      if (!(error instanceof ArrayFormatError)) throw error
      this.failure = error
    }
    return out
  }

  private scan(chunk: string, out: ArrayElement[]): void {
    let segment = this.state === 'in-value' ? 0 : -1
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk.charCodeAt(i)
      if (c === LF) this.line++
      switch (this.state) {
        case 'in-value': {
          if (this.inString) {
            if (this.escaped) this.escaped = false
            else if (c === BACKSLASH) this.escaped = true
            else if (c === QUOTE) {
              this.inString = false
              if (this.depth === 0) this.emit(out, chunk, segment, i + 1)
            }
          } else if (c === QUOTE) this.inString = true
          else if (OPENERS.has(c)) this.depth++
          else if (CLOSERS.has(c) && this.depth > 0) {
            if (--this.depth === 0 && !this.scalar) this.emit(out, chunk, segment, i + 1)
          } else if (this.scalar && this.depth === 0 && (c === COMMA || c === ARRAY_END || WS.has(c))) {
            this.emit(out, chunk, segment, i)
            i-- // the delimiter belongs to the array
            if (c === LF) this.line--
          }
          break
        }
        case 'start':
          if (WS.has(c)) break
          if (c !== 0x5b) throw new ArrayFormatError(this.line, 'expected a JSON array ("[")')
          this.state = 'first-value'
          break
        case 'first-value':
        case 'value':
          if (WS.has(c)) break
          if (c === ARRAY_END && this.state === 'first-value') {
            this.state = 'done'
            break
          }
          if (c === ARRAY_END || c === COMMA) throw new ArrayFormatError(this.line, 'expected a value')
          this.state = 'in-value'
          this.startLine = this.line
          segment = i
          this.pending = ''
          this.depth = OPENERS.has(c) ? 1 : 0
          this.inString = c === QUOTE
          this.scalar = !OPENERS.has(c) && c !== QUOTE
          break
        case 'after-value':
          if (WS.has(c)) break
          if (c === COMMA) this.state = 'value'
          else if (c === ARRAY_END) this.state = 'done'
          else throw new ArrayFormatError(this.line, 'expected "," or "]" after an element')
          break
        case 'done':
          if (!WS.has(c)) throw new ArrayFormatError(this.line, 'unexpected text after the end of the array')
      }
    }
    if (this.state === 'in-value') this.pending += chunk.slice(segment)
  }

  /** Checks the array was closed; what `push` returned is all there is. */
  end(): void {
    if (this.failure) throw this.failure
    if (this.state === 'in-value' && this.scalar && this.depth === 0 && !this.inString) {
      throw new ArrayFormatError(this.line, 'the array is not closed ("]" missing)')
    }
    if (this.state !== 'done') throw new ArrayFormatError(this.line, this.state === 'start' ? 'the file is empty' : 'the array is not closed ("]" missing)')
  }

  private emit(out: ArrayElement[], chunk: string, from: number, to: number): void {
    out.push({ line: this.startLine, text: this.pending + chunk.slice(from, to) })
    this.pending = ''
    this.state = 'after-value'
  }
}
