// The CONTROL service of the rows worker: /halfway holds the producer until the test says the client has bytes
// (or a timeout passes), /closed records how the producer's generator ended.
import { listen, notFound, type RunningServer } from '../browser/http.ts';

export interface Run {
  /** Lets a producer waiting at /halfway go on. */
  clientHasBytes(): void;
  /** How the producer got past halfway: released by the client's bytes, by the timeout, or not yet. */
  readonly halfway: 'client' | 'timeout' | null;
  /** Resolves with `completed` from the generator's finally. */
  readonly closed: Promise<boolean>;
}

export interface Control extends RunningServer {
  run(id: string): Run;
}

export async function startControl(holdMs: number): Promise<Control> {
  const runs = new Map<
    string,
    Run & { release: () => void; close: (completed: boolean) => void; gate: Promise<void> }
  >();
  const run = (id: string) => {
    let entry = runs.get(id);
    if (!entry) {
      let release!: () => void;
      let close!: (completed: boolean) => void;
      const gate = new Promise<void>((resolve) => {
        release = resolve;
      });
      const closed = new Promise<boolean>((resolve) => {
        close = resolve;
      });
      let halfway: 'client' | 'timeout' | null = null;
      let hasBytes = false;
      entry = {
        release,
        close,
        gate,
        closed,
        clientHasBytes: () => {
          hasBytes = true;
          release();
        },
        get halfway() {
          return halfway;
        },
      };
      // Decided when the producer arrives: by the client's bytes if they came first, else by the timeout.
      const decide = entry;
      void gate.then(() => {
        halfway ??= hasBytes ? 'client' : 'timeout';
      });
      runs.set(id, decide);
    }
    return entry;
  };
  const running = await listen(async (_req, res, url) => {
    const id = url.searchParams.get('id') ?? '';
    if (url.pathname === '/halfway') {
      const entry = run(id);
      const timer = setTimeout(entry.release, holdMs);
      await entry.gate;
      clearTimeout(timer);
      res.writeHead(200).end('go on');
    } else if (url.pathname === '/closed') {
      run(id).close(url.searchParams.get('completed') === 'true');
      res.writeHead(204).end();
    } else {
      notFound(res);
    }
  });
  return { ...running, run };
}
