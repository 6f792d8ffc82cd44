// Child processes for the examples' smoke runs: a program run to its end with a deadline, or a server started
// until it prints its address. A program that fails or hangs fails the test with everything it printed.
import { execFile, spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const BIN = (name: string) => join(ROOT, 'node_modules', '.bin', name);

export function runToEnd(
  command: string,
  args: string[],
  options: { cwd: string; timeoutMs?: number; env?: NodeJS.ProcessEnv },
): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      command,
      args,
      {
        cwd: options.cwd,
        env: options.env ?? process.env,
        timeout: options.timeoutMs ?? 60_000,
        maxBuffer: 16 << 20,
        killSignal: 'SIGKILL',
      },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`${command} ${args.join(' ')} failed: ${error.message}\n${stdout}\n${stderr}`));
        else resolve(stdout);
      },
    );
  });
}

/** The last line of `output` that parses as a JSON object. */
export function lastJsonLine(output: string): Record<string, unknown> {
  const line = output
    .trim()
    .split('\n')
    .reverse()
    .find((text) => text.startsWith('{'));
  if (line === undefined) throw new Error(`no JSON line in:\n${output}`);
  return JSON.parse(line);
}

export interface ServerProcess {
  readonly origin: string;
  stop(): void;
}

/** Starts a server program and waits for it to print its http://127.0.0.1:PORT address. */
export function startServerProcess(
  command: string,
  args: string[],
  options: { cwd: string; timeoutMs?: number },
): Promise<ServerProcess> {
  const child = spawn(command, args, { cwd: options.cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  let printed = '';
  return new Promise((resolve, reject) => {
    const fail = (message: string) => {
      child.kill('SIGKILL');
      reject(new Error(`${command} ${args.join(' ')}: ${message}:\n${printed}`));
    };
    const timer = setTimeout(() => fail('printed no address'), options.timeoutMs ?? 60_000);
    const read = (data: Buffer) => {
      printed += data;
      const match = /http:\/\/127\.0\.0\.1:\d+/.exec(printed);
      if (match) {
        clearTimeout(timer);
        resolve({ origin: match[0], stop: () => child.kill() });
      }
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`${command} exited (${code ?? signal}):\n${printed}`));
    });
  });
}
