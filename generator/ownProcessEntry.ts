/** The child of runInOwnProcess (generator/assets/ownProcess.ts): runs one job, prints its result as JSON. */
import { ownProcessJobs, type OwnProcessJob } from './ownProcessJobs.js';

const call = JSON.parse(process.argv[2] ?? '{}') as { job: OwnProcessJob; args: unknown[] };
const run = (await ownProcessJobs[call.job]()) as (...args: unknown[]) => unknown;
const result = await run(...call.args);
process.stdout.write(`${JSON.stringify(result ?? null)}\n`);
// GENERATOR_TIMINGS: the parent prints how much processor time the job took.
if (process.env.GENERATOR_TIMINGS) {
  const { user, system } = process.cpuUsage();
  process.stderr.write(`cpu ${Math.round((user + system) / 1000)} ms\n`);
}
