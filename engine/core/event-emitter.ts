/** A minimal typed emitter: listeners per event name, unsubscribe by the returned function. */
export class EventEmitter<Events extends object> {
  private readonly listeners = new Map<keyof Events, Set<(payload: never) => void>>()

  /** Adds a listener; returns the function that removes it. */
  on<Name extends keyof Events>(name: Name, listener: (payload: Events[Name]) => void): () => void {
    let set = this.listeners.get(name)
    if (!set) {
      set = new Set()
      this.listeners.set(name, set)
    }
    set.add(listener as (payload: never) => void)
    return () => {
      set.delete(listener as (payload: never) => void)
    }
  }

  /**
   * Calls every listener. One listener throwing does not stop the others or the engine; the
   * error is still reported (window error handlers and trackers see it through reportError).
   */
  emit<Name extends keyof Events>(name: Name, payload: Events[Name]): void {
    const set = this.listeners.get(name)
    if (!set) return
    for (const listener of [...set]) {
      try {
        ;(listener as (payload: Events[Name]) => void)(payload)
      } catch (error) {
        if (typeof reportError === 'function') reportError(error)
        else console.error(error)
      }
    }
  }

  /** Drops every listener. */
  clear(): void {
    this.listeners.clear()
  }
}
