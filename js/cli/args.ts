// The command line, parsed: which command, its paths, its input and its options. Options may come anywhere
// (`--limit 10` or `--limit=10`); `--` ends them; a positional argument starting with `$` is a path, any other is
// the input (a file, `-` for standard input, or an http(s) URL).
import { UsageError } from './exit_codes.js';

export type CommandName = 'select' | 'get' | 'validate' | 'count';

/** Everything a command needs from the command line. */
export interface CommandLine {
  readonly command: CommandName;
  readonly paths: readonly string[];
  /** A file name, `-` (standard input) or an http(s) URL; undefined when none was given. */
  readonly input: string | undefined;
  readonly help: boolean;
  /** true: shown; false: hidden; undefined: shown when standard error is a terminal. */
  readonly progress: boolean | undefined;
  readonly ndjson: boolean;
  readonly array: boolean;
  readonly withPath: boolean;
  /** Stop after this many elements; undefined: no limit. */
  readonly limit: number | undefined;
  readonly maxDepth: number | undefined;
  readonly maxElementBytes: number | undefined;
}

/** What each command accepts: its paths (exactly one, or one or more, or none) and its own options. */
const COMMANDS: Readonly<Record<CommandName, { readonly paths: 'one' | 'many' | 'none'; readonly flags: string[] }>> = {
  select: { paths: 'many', flags: ['--array', '--with-path', '--ndjson', '--limit'] },
  get: { paths: 'one', flags: [] },
  validate: { paths: 'none', flags: ['--ndjson'] },
  count: { paths: 'one', flags: ['--ndjson'] },
};

const COMMON_FLAGS = ['--help', '-h', '--progress', '--no-progress', '--max-depth', '--max-element-bytes'];
const VALUE_FLAGS = new Set(['--limit', '--max-depth', '--max-element-bytes']);

export function isCommandName(name: string): name is CommandName {
  return Object.prototype.hasOwnProperty.call(COMMANDS, name);
}

function integer(flag: string, text: string | undefined, min: number, max: number): number {
  if (text === undefined) throw new UsageError(`${flag} needs a number`);
  const value = /^\d+$/.test(text) ? Number(text) : NaN;
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    throw new UsageError(`${flag} must be an integer from ${min} to ${max}, got ${JSON.stringify(text)}`);
  }
  return value;
}

/** Parses the arguments after the command name. */
export function parseCommandLine(command: CommandName, args: readonly string[]): CommandLine {
  const spec = COMMANDS[command];
  const paths: string[] = [];
  const inputs: string[] = [];
  const flags = new Map<string, string | true>();
  let options = true;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (options && arg === '--') {
      options = false;
      continue;
    }
    if (options && arg.startsWith('-') && arg !== '-') {
      const eq = arg.indexOf('=');
      const name = eq > 0 ? arg.slice(0, eq) : arg;
      if (!COMMON_FLAGS.includes(name) && !spec.flags.includes(name)) {
        throw new UsageError(`unknown option ${name} for \`sluice ${command}\``);
      }
      if (VALUE_FLAGS.has(name)) {
        const value = eq > 0 ? arg.slice(eq + 1) : args[++i];
        flags.set(name, value ?? '');
      } else {
        if (eq > 0) throw new UsageError(`${name} takes no value`);
        flags.set(name, true);
      }
      continue;
    }
    if (arg.startsWith('$')) paths.push(arg);
    else inputs.push(arg);
  }
  const help = flags.has('--help') || flags.has('-h');
  if (!help) {
    if (inputs.length > 1) {
      throw new UsageError(`one input at most, got ${inputs.length}: ${inputs.join(' ')} (paths start with $)`);
    }
    if (spec.paths === 'none' && paths.length > 0) throw new UsageError(`\`sluice ${command}\` takes no path`);
    if (spec.paths === 'one' && paths.length !== 1) {
      throw new UsageError(`\`sluice ${command}\` takes one PATH (starting with $), got ${paths.length}`);
    }
    if (spec.paths === 'many' && paths.length === 0) {
      throw new UsageError(`\`sluice ${command}\` needs at least one PATH (starting with $), e.g. '$[*]'`);
    }
    if (paths.length > 32) throw new UsageError(`at most 32 paths, got ${paths.length}`);
    if (flags.has('--array') && flags.has('--with-path')) {
      throw new UsageError('--array and --with-path cannot be used together');
    }
  }
  const value = (name: string): string | undefined => {
    const v = flags.get(name);
    return v === true ? undefined : v;
  };
  return {
    command,
    paths,
    input: inputs[0],
    help,
    progress: flags.has('--no-progress') ? false : flags.has('--progress') ? true : undefined,
    ndjson: flags.has('--ndjson'),
    array: flags.has('--array'),
    withPath: flags.has('--with-path'),
    limit: flags.has('--limit') ? integer('--limit', value('--limit'), 0, Number.MAX_SAFE_INTEGER) : undefined,
    maxDepth: flags.has('--max-depth') ? integer('--max-depth', value('--max-depth'), 1, 1_000_000) : undefined,
    maxElementBytes: flags.has('--max-element-bytes')
      ? integer('--max-element-bytes', value('--max-element-bytes'), 1, 0xffff_ffff)
      : undefined,
  };
}
