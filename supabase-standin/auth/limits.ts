/**
 * How the local Auth stand-in slows down guessing, in memory as Supabase Auth keeps its limits.
 *
 * Per client address (as the gateway saw it), Supabase Auth's default token buckets:
 *   POST /token (password and refresh_token sign-ins)   150 per 5 minutes, bursts of 30
 *   POST /factors/{id}/challenge, POST /factors/{id}/verify  15 per minute each, bursts of 30
 * Per account, the stand-in's own (Supabase leaves these to an auth hook):
 *   5 wrong passwords for one email within 15 minutes   further password sign-ins for that email
 *                                                       are refused until the oldest is 15 min old
 *   5 wrong codes for one factor within 5 minutes       further verifications refused likewise
 * An attempt is counted before the password or code is checked (FailureWindow.reserve), so
 * concurrent guesses get no more checks than sequential ones.
 * A refusal is Supabase's: 429 over_request_rate_limit "Request rate limit reached".
 */

export interface Clock {
  now(): number;
}

/** Token buckets by key: `burst` tokens, refilled at `perSecond`; a request takes one. */
export class TokenBuckets {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(
    private readonly perSecond: number,
    private readonly burst: number,
    private readonly clock: Clock = Date,
  ) {}

  /** Takes a token for `key`; false when the bucket is empty (the request is refused). */
  take(key: string): boolean {
    const now = this.clock.now();
    const bucket = this.buckets.get(key) ?? { tokens: this.burst, at: now };
    bucket.tokens = Math.min(this.burst, bucket.tokens + ((now - bucket.at) / 1000) * this.perSecond);
    bucket.at = now;
    const allowed = bucket.tokens >= 1;
    if (allowed) bucket.tokens -= 1;
    this.buckets.set(key, bucket);
    // Full buckets carry no information: drop them so memory stays bounded by the active clients.
    if (this.buckets.size > 10_000) for (const [k, b] of this.buckets) if (b.tokens + ((now - b.at) / 1000) * this.perSecond >= this.burst) this.buckets.delete(k);
    return allowed;
  }
}

/** A reserved attempt: counted as a failure unless cancelled (the attempt proved right). */
export interface Attempt {
  cancel(): void;
}

/**
 * Failures by key within a sliding window: once `max` are recorded, further attempts are refused.
 * An attempt is counted before it is judged (reserve), not after: checking a password takes a
 * slow hash, and concurrent attempts that all read the count before any wrote it would all be
 * checked. So at most `max` attempts per window are ever judged wrong.
 */
export class FailureWindow {
  private readonly failures = new Map<string, number[]>();

  constructor(
    private readonly max: number,
    private readonly windowMs: number,
    private readonly clock: Clock = Date,
  ) {}

  private recent(key: string): number[] {
    const since = this.clock.now() - this.windowMs;
    const times = (this.failures.get(key) ?? []).filter((t) => t > since);
    if (times.length === 0) this.failures.delete(key);
    else this.failures.set(key, times);
    return times;
  }

  /** Counts an attempt for `key` as a failure now; undefined (refused) when `max` are already counted. */
  reserve(key: string): Attempt | undefined {
    const times = this.recent(key);
    if (times.length >= this.max) return undefined;
    const at = this.clock.now();
    this.failures.set(key, [...times, at]);
    return {
      cancel: () => {
        const current = this.failures.get(key) ?? [];
        const i = current.indexOf(at);
        if (i >= 0) current.splice(i, 1);
      },
    };
  }

  clear(key: string): void {
    this.failures.delete(key);
  }
}

/** The stand-in's limits, with the numbers documented above. */
export function createAuthLimits(clock: Clock = Date) {
  return {
    token: new TokenBuckets(150 / 300, 30, clock),
    challenge: new TokenBuckets(15 / 60, 30, clock),
    verify: new TokenBuckets(15 / 60, 30, clock),
    passwordFailures: new FailureWindow(5, 15 * 60_000, clock),
    codeFailures: new FailureWindow(5, 5 * 60_000, clock),
  };
}

export type AuthLimits = ReturnType<typeof createAuthLimits>;
