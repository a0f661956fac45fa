/**
 * The asset helper process of runInOwnProcess (generator/assets/ownProcess.ts): runs the jobs it
 * is sent, side by side, and answers each with its result (JSON) or its error. It ends when the
 * build closes the channel, which it does once no job is left.
 */
import { ownProcessJobs, type OwnProcessJob } from './ownProcessJobs.js';
import type { JobReply } from './assets/ownProcess.js';

const reply = (message: JobReply) => {
  const { user, system } = process.cpuUsage();
  process.send!({ ...message, cpuMs: Math.round((user + system) / 1000) });
};

process.on('message', async ({ id, job, args }: { id: number; job: OwnProcessJob; args: unknown[] }) => {
  try {
    const run = (await ownProcessJobs[job]()) as (...args: unknown[]) => unknown;
    reply({ id, result: (await run(...args)) ?? null });
  } catch (err) {
    reply({ id, error: err instanceof Error ? err.message : String(err) });
  }
});
// Closed by the build once nothing is left (or because the build ended): nothing more to do.
process.on('disconnect', () => process.exit(0));
