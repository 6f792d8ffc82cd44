// `sluice <command>`: parses the command line, opens the input, runs the command, and turns what went wrong into
// a message on standard error and an exit code (exit_codes.ts). Standard output carries nothing but data.
import { readFileSync, writeSync } from 'node:fs';
import { SluiceLoadError } from '../errors.js';
import { init, messageOf, requireRuntime, simdSupported, skipWarmUp } from '../native/loader.js';
import { misuse, mustBe } from '../validate.js';
import { isCommandName, parseCommandLine, type CommandLine } from './args.js';
import { ExcerptedError, describeError } from './error_report.js';
import { EXIT_INTERNAL, EXIT_OK, EXIT_SKIPPED, EXIT_USAGE, UsageError, exitCodeOf } from './exit_codes.js';
import { GENERAL_HELP, commandHelp } from './help.js';
import { openInput, type Input } from './input.js';
import { Output } from './output.js';
import { nodeProcess } from './node_process.js';
import { Progress } from './progress.js';
import * as scan from './scan_commands.js';
import { isTerminal } from './terminal.js';

const encoder = new TextEncoder();

function printTo(fd: number, text: string): void {
  const bytes = encoder.encode(text.endsWith('\n') ? text : `${text}\n`);
  try {
    writeSync(fd, bytes, 0, bytes.length);
  } catch {
    // Nowhere left to say it.
  }
}

function version(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}

/**
 * The bytes of the command line's own module (the page's, sluice.*.wasm, leaves out the compaction of `select`): the
 * build SLUICE_WASM names (`simd` or `scalar`: the tests run both), else SIMD where the engine has it. Read here,
 * synchronously: init() given a file URL would load node:fs/promises first, a module the command line needs for
 * nothing else.
 */
function wasmBytes(): Uint8Array {
  let build = nodeProcess.env.SLUICE_WASM;
  if (build === undefined || build === '') build = simdSupported() ? 'simd' : 'scalar';
  if (build !== 'simd' && build !== 'scalar')
    throw new UsageError(mustBe('sluice', 'SLUICE_WASM', "'simd' or 'scalar'", build));
  const url = new URL(`../sluice-cli.${build}.wasm`, import.meta.url);
  try {
    return readFileSync(url);
  } catch (error) {
    throw new SluiceLoadError(`sluice: cannot load the WebAssembly module: ${messageOf(error)}`, { cause: error });
  }
}

/** Runs the command line `args` (without `node` and the script); resolves to the exit code. */
export async function main(args: readonly string[]): Promise<number> {
  const first = args[0];
  if (first === undefined) {
    printTo(2, GENERAL_HELP);
    return EXIT_USAGE;
  }
  if (first === '--help' || first === '-h' || first === 'help') {
    const topic = args[1];
    printTo(1, topic !== undefined && isCommandName(topic) ? commandHelp(topic) : GENERAL_HELP);
    return EXIT_OK;
  }
  if (first === '--version' || first === '-V') {
    printTo(1, version());
    return EXIT_OK;
  }
  let cli: CommandLine;
  try {
    if (!isCommandName(first)) throw new UsageError(misuse('sluice', `unknown command ${JSON.stringify(first)}`));
    cli = parseCommandLine(first, args.slice(1));
  } catch (error) {
    printTo(2, `${describeError(error, '')}\nRun \`sluice --help\` for the commands and their options.`);
    return exitCodeOf(error);
  }
  if (cli.help) {
    printTo(1, commandHelp(cli.command));
    return EXIT_OK;
  }
  return run(cli);
}

async function run(cli: CommandLine): Promise<number> {
  const limits = cli.limits;
  const output = new Output();
  let input: Input | undefined;
  let progress: Progress | undefined;
  try {
    // The module compiles while the input opens (a download's first bytes may take a while).
    skipWarmUp();
    const loading = init(wasmBytes());
    input = await openInput(cli.input);
    await loading;
    const stderrTerminal = isTerminal(2);
    if (cli.progress ?? stderrTerminal) {
      progress = new Progress(input.size, stderrTerminal ? (nodeProcess.stderr.columns ?? 80) : undefined);
      // On a terminal shared with the output, the bar makes way for each write.
      if (stderrTerminal && isTerminal(1)) output.beforeWrite_ = () => progress?.clear();
    }
    let code = EXIT_OK;
    const report = (line: string): void => {
      progress?.clear();
      printTo(2, line);
    };
    if (cli.command === 'get') {
      // openJson's modules load for `get` alone.
      const { get } = await import('./get_command.js');
      code = await get(cli, { input, output, progress, limits, report });
    } else {
      // A query split into a native head and a tail or window in JS: its own module, loaded for it alone.
      // So are --with-normalized-path, whose markers' records are read one by one, a union whose selectors may
      // select one node, written once, and one whose matches are held for RFC order.
      const split =
        cli.tails_ !== null ||
        cli.windows_ !== null ||
        cli.normalized_ !== null ||
        cli.queries_ !== null ||
        cli.held_ !== null
          ? await import('./split_commands.js')
          : null;
      const command =
        cli.command === 'select'
          ? (split ?? scan).select
          : cli.command === 'count'
            ? (split ?? scan).count
            : scan.validate;
      const name = input.name;
      let skipped = 0;
      await command(cli, {
        runtime: requireRuntime(`sluice ${cli.command}`),
        input,
        output,
        progress,
        limits,
        // --skip-invalid: each skipped line in the words of an error, then the count at the end.
        skipped: cli.skipInvalid_
          ? (error, around) => {
              skipped++;
              report(`${describeError(error, name, around)}\n  skipped: line ${error.line}`);
            }
          : undefined,
      });
      if (cli.skipInvalid_) {
        report(`sluice: ${name}: ${skipped} line${skipped === 1 ? '' : 's'} skipped`);
        if (skipped > 0) code = EXIT_SKIPPED;
      }
    }
    progress?.finish();
    return code;
  } catch (error) {
    progress?.finish();
    const name = input?.name ?? cli.input ?? 'standard input';
    const reported = error instanceof ExcerptedError ? error.error : error;
    const code = exitCodeOf(reported);
    if (code === EXIT_OK) return code; // the reader of our output went away: nothing to say
    let message =
      error instanceof ExcerptedError ? describeError(error.error, name, error.around_) : describeError(error, name);
    if (code === EXIT_INTERNAL && error instanceof Error && error.stack !== undefined) message += `\n${error.stack}`;
    printTo(2, message);
    return code;
  } finally {
    input?.close();
  }
}
