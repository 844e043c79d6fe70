/** Errors the services raise; each transport maps them to its own status codes. */
export class NotFoundError extends Error {
  constructor(what: string) {
    super(`${what} not found`)
    this.name = 'NotFoundError'
  }
}

export class ForbiddenError extends Error {
  constructor(message = 'Not enough permissions') {
    super(message)
    this.name = 'ForbiddenError'
  }
}

/** Input a service refuses before doing anything (a transport's 400 / BAD_REQUEST; the CLI's usage error). */
export class InvalidInputError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'InvalidInputError'
  }
}
