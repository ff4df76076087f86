/**
 * Calls `fire(key)` soon after `touch(key)`, then at most once per `intervalMs` per key, however
 * often it is touched meanwhile: a burst of changes in one room becomes one broadcast (decision
 * 044). The first touch after a quiet spell waits only `settleMs`, so a lone change shows at once.
 */
export function createKeyedThrottle<Key>(options: {
  intervalMs: number;
  settleMs: number;
  fire: (key: Key) => void;
  clock?: () => number;
}) {
  const { intervalMs, settleMs, fire } = options;
  const clock = options.clock ?? Date.now;
  const last = new Map<Key, number>();
  const timers = new Map<Key, NodeJS.Timeout>();
  return {
    /** `key` changed: fire for it once the interval since its last firing allows. */
    touch(key: Key) {
      if (timers.has(key)) return;
      const now = clock();
      const previous = last.get(key);
      const wait =
        previous === undefined ? settleMs : Math.max(settleMs, previous + intervalMs - now);
      const timer = setTimeout(() => {
        timers.delete(key);
        last.set(key, clock());
        fire(key);
      }, wait);
      timer.unref();
      timers.set(key, timer);
    },
    /** Forgets keys quiet for longer than the interval (their next touch fires after `settleMs`). */
    forgetQuiet() {
      const now = clock();
      for (const [key, at] of last) if (now - at > intervalMs && !timers.has(key)) last.delete(key);
    },
    /** Cancels every pending firing. */
    close() {
      for (const timer of timers.values()) clearTimeout(timer);
      timers.clear();
      last.clear();
    },
  };
}
