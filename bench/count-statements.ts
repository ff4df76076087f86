/**
 * Preloaded into an app server by `bench:api` (`startAppServer(..., { countStatements: true })`
 * in `./lib.ts`): counts the statements the server sends to its database and answers the count
 * over the IPC channel when asked ('statements'). `npm start` never loads it, so the server
 * itself carries nothing for it.
 */
import { countStatements } from '#server/test/statements.ts';

const counter = countStatements();

process.on('message', (message) => {
  if (message === 'statements') process.send?.({ statements: counter.count });
});
// The channel alone must not keep the server alive once it closes.
process.channel?.unref();
