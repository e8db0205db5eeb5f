/**
 * Branded ids: plain strings at run time, distinct types at compile time, so a JobId cannot be
 * passed where a FloorId is expected. The engine mints them; the UI only reads and returns them.
 */
declare const brand: unique symbol

/** A `Value` that the type checker tells apart from other values of the same shape. */
export type Brand<Value, Name extends string> = Value & { readonly [brand]: Name }

/** One long-running piece of work (an archive extraction), for progress and cancelling. */
export type JobId = Brand<string, 'JobId'>
