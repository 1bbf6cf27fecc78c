import { setFlagsFromString } from 'node:v8';

/**
 * Turns off V8's allocation-site pretenuring in the serving process, before the application is
 * created.
 *
 * V8 watches how many objects from each object or array literal survive a young-generation GC; a
 * literal whose objects mostly survive (85%) is "pretenured": optimized code allocates its objects
 * straight into the old generation from then on. In a request pipeline that decision goes wrong
 * once: during a burst (a cold start, a slow database second) most requests are still in flight at
 * a scavenge, so a per-request literal that holds a part of the request looks long-lived and gets
 * pretenured. From then on every request allocates that object in the old generation, where it
 * dies at once but stays until the next Mark-Compact, and the young-generation GC keeps everything
 * it points to alive (old-to-young references are roots for a scavenge): the request, its
 * response, headers, body and the framework's closures survive two scavenges and are promoted.
 * The promoted requests keep the site's survival at 100%, so the decision does not revert:
 * `--trace-pretenuring-statistics` on the service under steady load showed one site at ~470
 * created and ~470 surviving at every scavenge (one object per request), decided "tenure" again
 * each time.
 *
 * Measured on the service (2026-11-27, POST /meter_events at 1,000 events/s, `--trace-gc-nvp`,
 * alternated): 5.1% of allocated bytes promoted (2.65 MB per scavenge) with V8's default, 2.7-2.9%
 * (1.4-1.5 MB) without pretenuring; scavenge pause median 7.6-9.5 ms against 4.4-4.5 ms; in 60 s
 * phases at 1,486 events/s, GC time per second 32-34 ms against 26 ms and 5 Mark-Compacts against 3.
 *
 * The flag cannot go in NODE_OPTIONS (V8 flags other than a few heap sizes are refused there), so
 * the entry point sets it; V8 reads it at each GC and when it compiles, so setting it before the
 * first request is in time.
 */
export function disableAllocationSitePretenuring(): void {
  setFlagsFromString('--no-allocation-site-pretenuring');
}
