/** The child of runInOwnProcess (ownProcess.ts): calls one exported function, prints its result as JSON. */
export {};

const call = JSON.parse(process.argv[2] ?? '{}') as { module: string; fn: string; args: unknown[] };
const exported = (await import(call.module)) as Record<string, (...args: unknown[]) => unknown>;
const result = await exported[call.fn]!(...call.args);
process.stdout.write(`${JSON.stringify(result ?? null)}\n`);
