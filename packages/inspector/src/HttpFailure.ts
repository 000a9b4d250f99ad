/**
 * An answer with a status, thrown by a handler (or by the guard in front of it) and sent
 * by `startGuardedServer`: a code naming the failure, a one-line message saying what to
 * do, and any fields that help (e.g. the body field at fault).
 */
export class HttpFailure {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly message: string,
    readonly extra: Readonly<Record<string, unknown>> = {},
  ) {}
}
