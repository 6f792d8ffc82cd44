// Node's `process` object, typed for the few members the command line reads. Taken from the global rather than
// imported: `import process from 'node:process'` builds the ESM namespace of every property, which creates
// process.stdin, stdout and stderr (their tty or net streams): 20 million instructions of start-up, a fifth of
// Node's own (valgrind, node 20.20).
export interface NodeProcess {
  readonly argv: readonly string[];
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Touched only to draw the progress bar on a terminal (its width). */
  readonly stderr: { readonly columns?: number };
  exit(code: number): never;
}

export const nodeProcess = (globalThis as unknown as { process: NodeProcess }).process;
