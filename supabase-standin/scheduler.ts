/**
 * What pg_cron's and pg_net's background workers do on Supabase, for the stand-in's PGlite
 * (platformSchema.ts has their SQL): every minute, run the jobs of cron.job whose schedule names
 * that minute, as their owner, recording each in cron.job_run_details; then send the requests
 * that net.http_post queued, recording each answer in net._http_response. So the migration's
 * schedule (the lead delivery run) runs under `npm start` exactly as written, through the same
 * HTTP call of the edge function as on Supabase.
 *
 * Schedules: pg_cron's five fields (minute hour day month weekday) with `*`, `*\/n`, numbers,
 * ranges and lists; anything else (pg_cron's 'n seconds', '$') is reported and the job skipped.
 * The clock is injected; `runDue(at)` runs one minute's jobs now, which the tests call directly.
 * One difference, on purpose: when the stand-in starts it runs every job once (`npm start` may
 * have been stopped for a while; pg_cron would wait for the next minute).
 */
import type { PGlite } from '@electric-sql/pglite';

export interface SchedulerOptions {
  db: PGlite;
  now: () => Date;
  fetch: typeof fetch;
  log: (msg: string) => void;
}

export interface Scheduler {
  /** Runs the jobs due at `at` (every active job when `all`), then sends what they queued. */
  runDue(at: Date, all?: boolean): Promise<void>;
  /** Runs every job now and then each minute, until stop(). */
  start(): void;
  stop(): Promise<void>;
}

const FIELDS: Array<[min: number, max: number]> = [[0, 59], [0, 23], [1, 31], [1, 12], [0, 7]];

/** The values a cron field allows, or undefined when it is not of the supported form. */
function fieldValues(field: string, [min, max]: [number, number]): Set<number> | undefined {
  const values = new Set<number>();
  for (const part of field.split(',')) {
    const m = /^(\*|(\d+)(?:-(\d+))?)(?:\/(\d+))?$/.exec(part);
    if (!m) return undefined;
    const from = m[1] === '*' ? min : Number(m[2]);
    const to = m[1] === '*' ? max : m[3] !== undefined ? Number(m[3]) : m[4] !== undefined ? max : from;
    const step = m[4] !== undefined ? Number(m[4]) : 1;
    if (from < min || to > max || from > to || step < 1) return undefined;
    for (let v = from; v <= to; v += step) values.add(v);
  }
  return values;
}

/** Whether a five-field schedule names the UTC minute of `at`; undefined for a schedule it cannot read. */
export function cronMatches(schedule: string, at: Date): boolean | undefined {
  const fields = schedule.trim().split(/\s+/);
  if (fields.length !== 5) return undefined;
  const sets = fields.map((f, i) => fieldValues(f, FIELDS[i]!));
  if (sets.some((s) => s === undefined)) return undefined;
  const [minute, hour, day, month, weekday] = sets as Array<Set<number>>;
  const dow = at.getUTCDay();
  const dayRestricted = fields[2] !== '*';
  const weekdayRestricted = fields[4] !== '*';
  const dayOk = day!.has(at.getUTCDate());
  const weekdayOk = weekday!.has(dow) || (dow === 0 && weekday!.has(7));
  // As cron: when both day fields are restricted, either may match.
  const dateOk = dayRestricted && weekdayRestricted ? dayOk || weekdayOk : dayOk && weekdayOk;
  return minute!.has(at.getUTCMinutes()) && hour!.has(at.getUTCHours()) && month!.has(at.getUTCMonth() + 1) && dateOk;
}

interface Job {
  jobid: string;
  jobname: string | null;
  schedule: string;
  command: string;
  username: string;
}

interface QueuedRequest {
  id: string;
  method: string;
  url: string;
  headers: Record<string, string>;
  body: Uint8Array | null;
  timeout_milliseconds: number;
}

export function createScheduler(options: SchedulerOptions): Scheduler {
  const { db, log } = options;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running: Promise<void> = Promise.resolve();
  let stopped = false;

  async function runJob(job: Job): Promise<void> {
    const start = options.now();
    let status = 'succeeded';
    let message = '';
    try {
      await db.transaction(async (tx) => {
        await tx.exec(`SET LOCAL ROLE ${JSON.stringify(job.username)}`);
        await tx.exec(job.command);
      });
    } catch (err) {
      status = 'failed';
      message = err instanceof Error ? err.message : String(err);
      log(`[cron] job ${job.jobname ?? job.jobid} failed: ${message}`);
    }
    await db.query(
      `INSERT INTO cron.job_run_details (jobid, database, username, command, status, return_message, start_time, end_time)
       VALUES ($1, current_database(), $2, $3, $4, $5, $6, $7)`,
      [job.jobid, job.username, job.command, status, message.slice(0, 1000), start, options.now()],
    );
  }

  /** pg_net's worker: each queued request once, its answer recorded. */
  async function sendQueued(): Promise<void> {
    for (;;) {
      const { rows } = await db.query<QueuedRequest>('DELETE FROM net.http_request_queue WHERE id = (SELECT min(id) FROM net.http_request_queue) RETURNING *');
      const request = rows[0];
      if (!request) return;
      let status: number | null = null;
      let content: string | null = null;
      let error: string | null = null;
      let timedOut = false;
      try {
        const res = await options.fetch(request.url, {
          method: request.method,
          headers: request.headers,
          ...(request.body && { body: new Uint8Array(request.body) }),
          signal: AbortSignal.timeout(request.timeout_milliseconds),
        });
        status = res.status;
        content = (await res.text()).slice(0, 10_000);
      } catch (err) {
        timedOut = err instanceof Error && err.name === 'TimeoutError';
        error = err instanceof Error ? err.name : 'error';
        log(`[net] request ${request.id} to ${new URL(request.url).origin} failed: ${error}`);
      }
      await db.query(
        'INSERT INTO net._http_response (id, status_code, content, timed_out, error_msg, created) VALUES ($1, $2, $3, $4, $5, $6)',
        [request.id, status, content, timedOut, error, options.now()],
      );
    }
  }

  async function runDue(at: Date, all = false): Promise<void> {
    const { rows } = await db.query<Job>('SELECT jobid, jobname, schedule, command, username FROM cron.job WHERE active ORDER BY jobid');
    for (const job of rows) {
      const due = cronMatches(job.schedule, at);
      if (due === undefined) {
        log(`[cron] job ${job.jobname ?? job.jobid}: the local stand-in runs five-field schedules only, not "${job.schedule}"`);
        continue;
      }
      if (due || all) await runJob(job);
    }
    await sendQueued();
  }

  /** Runs one pass after the one before it, never two at once. */
  function pass(at: Date, all = false): Promise<void> {
    running = running.then(() => runDue(at, all)).catch((err: unknown) => log(`[cron] ${err instanceof Error ? err.message : String(err)}`));
    return running;
  }

  function scheduleNext(): void {
    if (stopped) return;
    const now = options.now();
    const next = new Date(now);
    next.setUTCSeconds(0, 0);
    next.setUTCMinutes(next.getUTCMinutes() + 1);
    timer = setTimeout(() => {
      void pass(next).then(scheduleNext);
    }, next.getTime() - now.getTime());
    timer.unref?.();
  }

  return {
    runDue: (at, all) => pass(at, all),
    start() {
      void pass(options.now(), true).then(scheduleNext);
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
