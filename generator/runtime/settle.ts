/** Promise.all that waits for every promise before it rejects (with the first failure): nothing it started is still writing when the caller cleans up. */
export async function settleAll<T extends readonly unknown[]>(promises: T): Promise<{ -readonly [K in keyof T]: Awaited<T[K]> }> {
  const results = await Promise.allSettled(promises);
  const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
  return results.map((r) => (r as PromiseFulfilledResult<unknown>).value) as { -readonly [K in keyof T]: Awaited<T[K]> };
}

/** Times each stage; GENERATOR_TIMINGS=1 also prints them with the memory in use (for profiling). */
export function stageTimer() {
  let last = performance.now();
  const stages: Record<string, number> = {};
  const lap = (stage: string) => {
    const now = performance.now();
    stages[stage] = now - last;
    // Under node --expose-gc, the heap figure is what is still in use, not garbage yet to be collected.
    if (process.env.GENERATOR_TIMINGS) (globalThis as { gc?: () => void }).gc?.();
    if (process.env.GENERATOR_TIMINGS) console.error(`  ${stage}: ${Math.round(now - last)} ms (rss ${Math.round(process.memoryUsage.rss() / 2 ** 20)} MiB, heap ${Math.round(process.memoryUsage().heapUsed / 2 ** 20)} MiB)`);
    last = now;
  };
  return Object.assign(lap, { stages });
}
