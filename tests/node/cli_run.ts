// Helpers of the command-line suites (cli.test.ts, cli_io.test.ts): run dist/cli/bin.js as a child process with the
// Vitest project's wasm build (SLUICE_WASM), and an independent reading of what `select` must write.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';

export const BIN = fileURLToPath(new URL('../../dist/cli/sluice.cjs', import.meta.url));

export interface CliResult {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stdoutBytes: Buffer;
  readonly stderr: string;
}

export interface CliOptions {
  /** Written to standard input, then closed; without it standard input is closed at once. */
  readonly input?: string | Uint8Array;
  readonly env?: Readonly<Record<string, string>>;
}

/** The environment of a child: the project's build, no colour or terminal hints. */
export function cliEnv(extra: Readonly<Record<string, string>> = {}): NodeJS.ProcessEnv {
  return { ...process.env, SLUICE_WASM: inject('sluiceBuild'), ...extra };
}

export function spawnCli(
  args: readonly string[],
  env?: Readonly<Record<string, string>>,
): ChildProcessWithoutNullStreams {
  return spawn(process.execPath, [BIN, ...args], { env: cliEnv(env), stdio: 'pipe' });
}

/** Runs `sluice args...` to its end. */
export function runCli(args: readonly string[], options: CliOptions = {}): Promise<CliResult> {
  const child = spawnCli(args, options.env);
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
  child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
  // The child may exit before reading all of it (an error, --limit): that is no failure of the test.
  child.stdin.on('error', () => {});
  child.stdin.end(options.input);
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => {
      const stdoutBytes = Buffer.concat(out);
      resolve({
        code,
        signal,
        stdout: stdoutBytes.toString('utf8'),
        stdoutBytes,
        stderr: Buffer.concat(err).toString('utf8'),
      });
    });
  });
}

/** The lines of an NDJSON output (the last one ends with a newline, so the empty string after it is dropped). */
export function lines(stdout: string): string[] {
  if (stdout === '') return [];
  if (!stdout.endsWith('\n'))
    throw new Error(`output does not end with a newline: ${JSON.stringify(stdout.slice(-40))}`);
  return stdout.slice(0, -1).split('\n');
}

const WHITESPACE = new Set([' ', '\t', '\n', '\r']);

/** The text without insignificant whitespace, every other character kept: what `select` writes for it. */
export function compactJson(text: string): string {
  let out = '';
  let inString = false;
  let escaped = false;
  for (const c of text) {
    if (inString) {
      out += c;
      if (escaped) escaped = false;
      else if (c === '\\') escaped = true;
      else if (c === '"') inString = false;
    } else if (!WHITESPACE.has(c)) {
      out += c;
      inString = c === '"';
    }
  }
  return out;
}

/**
 * The member texts of a compact array or object text (`[a,b]` -> ['a', 'b']; `{"k":v}` -> ['v']): the elements of
 * `$[*]` or `$.*`, found by depth and string state alone.
 */
export function topLevelItems(compact: string): string[] {
  const items: string[] = [];
  let depth = 0;
  let inString = false;
  let escaped = false;
  let start = 1;
  let keyEnd = -1;
  const object = compact.startsWith('{');
  for (let i = 0; i < compact.length; i++) {
    const c = compact[i];
    if (inString) {
      if (escaped) escaped = false;
      else if (c === '\\') escaped = true;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === '[' || c === '{') depth++;
    else if (c === ':' && depth === 1 && keyEnd < 0) keyEnd = i;
    else if ((c === ',' && depth === 1) || ((c === ']' || c === '}') && depth === 1)) {
      if (i > start) items.push(compact.slice(object ? keyEnd + 1 : start, i));
      start = i + 1;
      keyEnd = -1;
      if (c !== ',') depth--;
    } else if (c === ']' || c === '}') depth--;
  }
  return items;
}
