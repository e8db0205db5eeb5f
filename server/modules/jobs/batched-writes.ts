/**
 * Writes gathered into one statement: items added while a write is on its way (or in the same
 * turn of the event loop) go together in the next. A queue of small jobs pays one round trip to
 * the database per batch instead of one per job, and the busier it is the bigger the batches.
 */
export class BatchedWrites<Item> {
  private pending: { item: Item; settle: (error?: unknown) => void }[] = []
  private writing: Promise<void> | null = null

  constructor(private readonly write: (items: Item[]) => Promise<void>) {}

  /** Settles once the batch holding this item is written; rejects with that write's error. */
  add(item: Item): Promise<void> {
    const written = new Promise<void>((resolve, reject) => {
      this.pending.push({
        item,
        settle: (error) => (error === undefined ? resolve() : reject(error)),
      })
    })
    this.writing ??= this.drain()
    return written
  }

  /** Settles when everything added so far has been written or has failed. */
  async flushed(): Promise<void> {
    while (this.writing) await this.writing
  }

  private async drain(): Promise<void> {
    // let the rest of this turn's items join the first batch
    await new Promise((resolve) => setImmediate(resolve))
    while (this.pending.length > 0) {
      const batch = this.pending.splice(0)
      try {
        await this.write(batch.map(({ item }) => item))
        for (const { settle } of batch) settle()
      } catch (error) {
        for (const { settle } of batch) settle(error ?? new Error('write failed'))
      }
    }
    this.writing = null
  }
}
