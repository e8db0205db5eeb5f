/**
 * Why a worker refused its input, as plain data: comlink rebuilds thrown errors from
 * name/message/stack only, and the caller needs the stable `code` to translate the message.
 */
export interface WorkerFailure<Code extends string = string> {
  code: Code
  message: string
  detail?: string | undefined
}

/**
 * The one answer shape of a worker call that can refuse its input: the value, or the failure as
 * data. Unexpected errors (bugs) still throw and cross with the error transport of expose.ts.
 */
export type WorkerOutcome<Value, Failure extends WorkerFailure = WorkerFailure> =
  | { ok: true; value: Value }
  | { ok: false; error: Failure }

/**
 * Runs `work` and answers its value, or the failure `toFailure` makes of a thrown error it
 * knows (undefined: not an input problem, rethrown as is).
 */
export async function outcomeOf<Value, Failure extends WorkerFailure>(
  work: () => Value | Promise<Value>,
  toFailure: (error: unknown) => Failure | undefined,
): Promise<WorkerOutcome<Value, Failure>> {
  try {
    return { ok: true, value: await work() }
  } catch (error) {
    const failure = toFailure(error)
    if (failure === undefined) throw error
    return { ok: false, error: failure }
  }
}
