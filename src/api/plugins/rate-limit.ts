import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Redis } from 'ioredis';
import { hashApiKey } from '../../db/customers.repository';
import { DomainError } from '../../domain/errors';
import { apiKeyOf } from './auth';

/**
 * Sliding-window-log rate limiting (docs/api.md "Rate limit"; the API (docs/api.md): lookup by reference and details by id,
 * 300 requests per minute per API key). A request is allowed when fewer than `limit` allowed requests of the
 * same key fall in the last `windowMs`; refused requests are not recorded, so hammering does not extend a lockout.
 * In one process the log lives in memory; with REDIS_URL it lives in a Redis sorted set shared by every API process.
 */

export interface RateLimitResult {
  allowed: boolean;
  limit: number;
  /** requests still allowed in the current window (after this one) */
  remaining: number;
  /** ms until the window frees a slot (the oldest counted request leaves it) */
  resetMs: number;
  /** ms until a refused request may be retried; 0 when allowed */
  retryAfterMs: number;
}

export interface RateLimiter {
  hit(key: string, now?: number): Promise<RateLimitResult>;
  close(): Promise<void>;
}

export interface RateLimitOptions {
  limit: number;
  windowMs: number;
}

function checkOptions({ limit, windowMs }: RateLimitOptions): void {
  if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`rate limit must be a positive integer, got ${limit}`);
  if (!Number.isInteger(windowMs) || windowMs < 1) throw new RangeError(`rate limit window must be a positive integer (ms), got ${windowMs}`);
}

function resultOf(allowed: boolean, limit: number, count: number, oldest: number, now: number, windowMs: number): RateLimitResult {
  // `oldest` is the earliest counted request; the window frees a slot when it leaves (oldest + windowMs).
  const resetMs = count > 0 ? Math.max(1, oldest + windowMs - now) : 0;
  return { allowed, limit, remaining: Math.max(0, limit - count), resetMs, retryAfterMs: allowed ? 0 : resetMs };
}

// ---------------------------------------------------------------------------------------------------------------
// In memory (one process)

export interface MemoryRateLimiter extends RateLimiter {
  /** number of keys currently tracked (for tests and metrics) */
  size(): number;
}

/**
 * Exact sliding window log per key: the timestamps of the allowed requests, ascending. A key never holds more than
 * `limit` stamps (a stamp is only added under the limit). Keys whose newest stamp has left the window are evicted by
 * a lazy sweep at most once per window (driven by `now`, so it also works with injected clocks).
 * `hit` does all its work synchronously, so concurrent callers in one process cannot interleave and overshoot.
 */
export function createMemoryRateLimiter(options: RateLimitOptions): MemoryRateLimiter {
  checkOptions(options);
  const { limit, windowMs } = options;
  const logs = new Map<string, number[]>();
  let lastSweep = -Infinity;

  const prune = (stamps: number[], now: number): void => {
    // A stamp at exactly now - windowMs has left the window (same rule as the Redis script).
    let expired = 0;
    while (expired < stamps.length && stamps[expired] <= now - windowMs) expired++;
    if (expired) stamps.splice(0, expired);
  };

  const sweep = (now: number): void => {
    lastSweep = now;
    for (const [key, stamps] of logs) {
      if (!stamps.length || stamps[stamps.length - 1] <= now - windowMs) logs.delete(key);
    }
  };

  return {
    hit(key, now = Date.now()) {
      if (now - lastSweep >= windowMs || now < lastSweep) sweep(now);
      let stamps = logs.get(key);
      if (!stamps) {
        stamps = [];
        logs.set(key, stamps);
      }
      prune(stamps, now);
      const allowed = stamps.length < limit;
      if (allowed) {
        // Keep the log sorted even if the clock stepped back (rare with Date.now, possible with injected times).
        let at = stamps.length;
        while (at > 0 && stamps[at - 1] > now) at--;
        stamps.splice(at, 0, now);
      }
      return Promise.resolve(resultOf(allowed, limit, stamps.length, stamps[0] ?? now, now, windowMs));
    },
    size: () => logs.size,
    close() {
      logs.clear();
      return Promise.resolve();
    },
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Redis (shared by every API process)

/**
 * One atomic step of the sliding window log in a sorted set (score = ms timestamp, member = unique per request).
 * The clock is Redis' own `TIME`, not the caller's: several API hosts share one Redis and their clocks may drift,
 * and with one clock every process sees the same window. Calling TIME before writes is fine on Redis >= 5, where
 * scripts replicate their effects (not the script), so `redis.replicate_commands()` is not needed (Redis 7 here).
 * KEYS[1] the key's sorted set; ARGV[1] limit; ARGV[2] window (ms); ARGV[3] random member suffix.
 * Returns {allowed (0|1), count after this request, oldest score, now}.
 */
const SLIDING_WINDOW_LUA = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local limit = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local count = redis.call('ZCARD', KEYS[1])
local allowed = 0
if count < limit then
  redis.call('ZADD', KEYS[1], now, t[1] .. '.' .. t[2] .. '-' .. ARGV[3])
  count = count + 1
  allowed = 1
end
redis.call('PEXPIRE', KEYS[1], window)
local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
local oldestScore = now
if oldest[2] then oldestScore = tonumber(oldest[2]) end
return {allowed, count, oldestScore, now}
`;

const COMMAND = 'consignflowSlidingWindowHit';

type ScriptedRedis = Redis & {
  [COMMAND](key: string, limit: number, windowMs: number, suffix: string): Promise<[number, number, number, number]>;
};

export interface RedisRateLimiterOptions extends RateLimitOptions {
  redis: Redis;
  /** key namespace; default `consignflow:ratelimit:` */
  prefix?: string;
  /** close() also closes the client (set by createRateLimiter, which owns it); default false */
  closeClient?: boolean;
  /** how long a hit waits for a connection in progress before failing (and the hook failing open); default 1000 */
  connectWaitMs?: number;
  /** how long a hit waits for Redis's answer before failing (and the hook failing open); default 1000 */
  answerWaitMs?: number;
}

/**
 * `promise`, or a timeout error once `ms` passed without it. Time this process spent busy is not Redis's: when
 * the timer fires, I/O already received (the answer on the socket) is handled first (setImmediate runs after
 * the poll phase), so only an answer really missing fails.
 */
function answerWithin<T>(promise: Promise<T>, ms: number): Promise<T> {
  let settled = false;
  let timer: NodeJS.Timeout | undefined;
  const tracked = promise.finally(() => {
    settled = true;
    clearTimeout(timer);
  });
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => setImmediate(() => settled || reject(new Error(`Redis did not answer within ${ms} ms`))), ms);
  });
  timeout.catch(() => undefined);
  return Promise.race([tracked, timeout]);
}

const CONNECTING = new Set(['wait', 'connecting', 'connect']);

/**
 * The sliding window log in Redis, one Lua script per hit (ioredis `defineCommand`: EVALSHA, EVAL on NOSCRIPT).
 * `now` is ignored: the script uses the Redis clock (see SLIDING_WINDOW_LUA).
 */
export function createRedisRateLimiter(options: RedisRateLimiterOptions): RateLimiter {
  checkOptions(options);
  const { redis, limit, windowMs, prefix = 'consignflow:ratelimit:', closeClient = false } = options;
  if (!(COMMAND in redis)) redis.defineCommand(COMMAND, { numberOfKeys: 1, lua: SLIDING_WINDOW_LUA });
  const scripted = redis as ScriptedRedis;
  const connectWaitMs = options.connectWaitMs ?? 1000;
  const answerWaitMs = options.answerWaitMs ?? 1000;
  // With the offline queue off, a command sent while the client is still connecting fails at once; so the first
  // requests after start-up would all fail open. Wait (shared, bounded) for a connection in progress instead.
  let connecting: Promise<void> | undefined;
  const whenConnected = (): Promise<void> | undefined => {
    if (!CONNECTING.has(redis.status)) return undefined;
    if (redis.status === 'wait') redis.connect().catch(() => undefined); // a lazyConnect client
    connecting ??= new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        redis.off('ready', done);
        redis.off('close', done);
        connecting = undefined;
        resolve();
      };
      const timer = setTimeout(done, connectWaitMs).unref();
      redis.once('ready', done);
      redis.once('close', done);
    });
    return connecting;
  };
  return {
    async hit(key) {
      await whenConnected();
      const [allowed, count, oldest, now] = await answerWithin(scripted[COMMAND](prefix + key, limit, windowMs, randomBytes(6).toString('hex')), answerWaitMs);
      return resultOf(allowed === 1, limit, Number(count), Number(oldest), Number(now), windowMs);
    },
    async close() {
      if (!closeClient) return;
      if (redis.status === 'ready') {
        await redis.quit().catch(() => redis.disconnect());
      } else {
        redis.disconnect();
      }
    },
  };
}

export interface CreateRateLimiterOptions extends RateLimitOptions {
  /** REDIS_URL: when given, the budget is shared through Redis; otherwise it is per process */
  redisUrl?: string;
  /** connection errors of the Redis client (it reconnects by itself); default: ignored, the hook logs failed hits */
  onRedisError?: (error: Error) => void;
  /** the Redis key namespace of this budget (two budgets must not share one) */
  prefix?: string;
}

/** Redis when a URL is given, else memory. The limiter owns its Redis client: close() closes it. */
export function createRateLimiter(options: CreateRateLimiterOptions): RateLimiter {
  const { redisUrl, onRedisError, prefix, ...limits } = options;
  if (!redisUrl) return createMemoryRateLimiter(limits);
  const redis = new Redis(redisUrl, {
    lazyConnect: false,
    // Fail fast rather than queue: a hit either reaches Redis now or the hook fails open.
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
    // A hung Redis must not stall lookups either: a hit gives up after answerWaitMs (busy time of this process
    // not counted); this only drops commands a hung connection would otherwise keep.
    commandTimeout: 10_000,
    // close() of a client that never connected leaves ioredis' stream-destroy timer this long (default 2 s).
    disconnectTimeout: 500,
  });
  // Without a listener, ioredis prints every reconnect failure to the console.
  redis.on('error', onRedisError ?? (() => undefined));
  return createRedisRateLimiter({ redis, ...limits, ...(prefix && { prefix }), closeClient: true });
}

// ---------------------------------------------------------------------------------------------------------------
// Fastify hook

const FAIL_OPEN_WARN_INTERVAL_MS = 60_000;
const lastFailOpenWarning = new WeakMap<RateLimiter, number>();

/**
 * A route-level `onRequest` (or `preHandler`) hook; it must run after authentication (route-level hooks run after
 * the context's `installAuth` hook). The budget is per API key, identified by the key's SHA-256 (never the raw key).
 * Every answer carries `RateLimit-Limit`, `RateLimit-Remaining`, `RateLimit-Reset` (seconds until the window frees a
 * slot) and `RateLimit-Policy` (`300;w=60`); a refusal adds `Retry-After` (whole seconds) and is a 429 envelope.
 *
 * Fail open: when the limiter errs (Redis unreachable or timing out), the request is allowed and a warning is
 * logged at most once a minute. The limit protects capacity; refusing every lookup because the limiter's store
 * is down would turn a Redis outage into an API outage, which is worse than briefly unlimited lookups.
 */
export function rateLimitHook(limiter: RateLimiter, options: RateLimitOptions): (request: FastifyRequest, reply: FastifyReply) => Promise<void> {
  checkOptions(options);
  const policy = `${options.limit};w=${Math.ceil(options.windowMs / 1000)}`;
  return async (request, reply) => {
    // Auth runs first and leaves the key's hash; without auth in front, the key's hash or the client address.
    const apiKey = request.apiKeyHash ? undefined : apiKeyOf(request);
    const hash = request.apiKeyHash ?? (apiKey && hashApiKey(apiKey));
    const key = hash ? `key:${hash}` : `ip:${request.ip}`;
    let result: RateLimitResult;
    try {
      result = await limiter.hit(key);
    } catch (error) {
      const now = Date.now();
      if (now - (lastFailOpenWarning.get(limiter) ?? -Infinity) >= FAIL_OPEN_WARN_INTERVAL_MS) {
        lastFailOpenWarning.set(limiter, now);
        request.log.warn({ err: error }, 'rate limiter unavailable: allowing requests unlimited (fail open)');
      }
      reply.header('RateLimit-Policy', policy);
      return;
    }
    reply.header('RateLimit-Limit', String(result.limit));
    reply.header('RateLimit-Remaining', String(result.remaining));
    reply.header('RateLimit-Reset', String(Math.ceil(result.resetMs / 1000)));
    reply.header('RateLimit-Policy', policy);
    if (!result.allowed) {
      reply.header('Retry-After', String(Math.max(1, Math.ceil(result.retryAfterMs / 1000))));
      throw new DomainError('RATE_LIMITED');
    }
  };
}
