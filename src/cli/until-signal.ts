// The stop signal of a long-running command (`hsa env serve`, `hsa worker`).
//
// Started through npm (`npx hsa …`, `npm run hsa -- …`), the command runs under `sh -c`, a child of npm:
// npm passes SIGINT and SIGTERM to that shell, which dies without passing them on, and the command is left
// running with no parent (still listening, in the case of `env serve`). So under npm (it sets `npm_command`
// in the environment) the command also stops when its parent is gone: its parent pid changes when it is
// orphaned. Started directly (`node dist/cli/main.js`, under `nohup`), only a signal stops it.

/** Why a long-running command stops: a signal, or (under npm) its parent exiting. */
export type StopReason = NodeJS.Signals | 'parent exited';

/** How often the parent is looked at, under npm. */
const parentCheckMs = 500;

/**
 * Resolves on the first SIGINT, SIGTERM or SIGHUP, or, when started through npm, when the npm process that
 * started it is gone.
 *
 * @example
 * const reason = await untilSignal(); // then close the server and exit
 */
export function untilSignal(): Promise<StopReason> {
  return new Promise((resolve) => {
    const signals: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
    const parent = process.ppid;
    const watch =
      process.env.npm_command !== undefined
        ? setInterval(() => {
            if (process.ppid !== parent) stop('parent exited');
          }, parentCheckMs)
        : undefined;
    watch?.unref();
    function stop(reason: StopReason) {
      for (const signal of signals) process.off(signal, stop);
      if (watch) clearInterval(watch);
      resolve(reason);
    }
    for (const signal of signals) process.on(signal, stop);
  });
}
