/**
 * Per-device token buckets for ingest: each device may make `perSecond` requests per second
 * sustained and `burst` at once, so one flooding device is refused (429) while the others go on.
 * In memory: a limit per process, which is what protects that process.
 */
export interface DeviceRateLimiter {
  /** Takes one request from the device's bucket: 0 when allowed, else the seconds to wait. */
  take(deviceId: string, nowMs: number): number
}

/** Most buckets kept; beyond it full buckets (idle devices) are dropped. */
const maxBuckets = 100_000

/** Builds a limiter. */
export function createDeviceRateLimiter(settings: {
  perSecond: number
  burst: number
}): DeviceRateLimiter {
  const { perSecond, burst } = settings
  const buckets = new Map<string, { tokens: number; atMs: number }>()
  return {
    take(deviceId, nowMs) {
      let bucket = buckets.get(deviceId)
      if (bucket === undefined) {
        if (buckets.size >= maxBuckets) {
          for (const [id, entry] of buckets) {
            if (entry.tokens + ((nowMs - entry.atMs) / 1000) * perSecond >= burst)
              buckets.delete(id)
          }
        }
        bucket = { tokens: burst, atMs: nowMs }
        buckets.set(deviceId, bucket)
      }
      bucket.tokens = Math.min(burst, bucket.tokens + ((nowMs - bucket.atMs) / 1000) * perSecond)
      bucket.atMs = nowMs
      if (bucket.tokens >= 1) {
        bucket.tokens -= 1
        return 0
      }
      return Math.max(1, Math.ceil((1 - bucket.tokens) / perSecond))
    },
  }
}
