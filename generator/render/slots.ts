/**
 * At most `limit` tasks at once: run() waits for a free slot and returns once its task has begun;
 * idle() waits for every task begun. The first failure is kept: it fails the next run() and idle().
 */
export class Slots {
  private readonly running = new Set<Promise<void>>();
  /** run() calls waiting for a slot (a queue: Promise.race over the running set would pile a handler on each per call). */
  private readonly waiting: (() => void)[] = [];
  private failure: { error: unknown } | undefined;

  constructor(private readonly limit: number) {}

  async run(task: () => Promise<void>): Promise<void> {
    while (this.running.size >= this.limit && !this.failure) await new Promise<void>((wake) => this.waiting.push(wake));
    if (this.failure) throw this.failure.error;
    const op: Promise<void> = task().catch((error: unknown) => { this.failure ??= { error }; }).finally(() => {
      this.running.delete(op);
      this.waiting.shift()?.();
    });
    this.running.add(op);
  }

  async idle(): Promise<void> {
    while (this.running.size) await Promise.all(this.running);
    if (this.failure) throw this.failure.error;
  }
}
