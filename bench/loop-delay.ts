/**
 * Preloaded into an app server by `bench:chat` (`startAppServer(..., { loopDelay: true })` in
 * `./lib.ts`): watches the server's own event-loop delay and answers its 99th percentile since the
 * last reset over the IPC channel ('loop-delay'; 'loop-delay:reset' starts a new window). A
 * message's p99 that grows with a side load while this does not is latency outside the server's
 * loop (the clients, the database); growing together, it is a long turn in the server. `npm start`
 * never loads it.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';

const delay = monitorEventLoopDelay({ resolution: 5 });
delay.enable();

process.on('message', (message) => {
  if (message === 'loop-delay:reset') delay.reset();
  else if (message === 'loop-delay') {
    process.send?.({ loopDelayP99: delay.percentile(99) / 1e6, loopDelayMax: delay.max / 1e6 });
  }
});
// The channel alone must not keep the server alive once it closes.
process.channel?.unref();
