// The command line, parsed: which command, its paths, its input and its options. Options may come anywhere
// (`--limit 10` or `--limit=10`); `--` ends them; a positional argument starting with `$` is a path, any other is
// the input (a file, `-` for standard input, or an http(s) URL). What the library would refuse (a path, a limit)
// is checked here by the library's own checks, so it is refused in the library's words before any input is read.
import type { ParserLimits } from '../errors.js';
import { MAX_SELECTORS } from '../native/contract.js';
import { singularSteps } from '../open_json/open_json_query.js';
import type { NormalizedPlan } from '../parse/normalized_paths.js';
import type { HeldUnions } from '../parse/match_order.js';
import { lowerPaths, type LoweredPaths } from '../parse/options.js';
import type { PathOrder } from '../query/lower.js';
import type { ArrayWindowSpec, QueryTail } from '../query/split.js';
import { integerIn, LIMITS, misuse, type ApiName } from '../validate.js';
import { UsageError } from './exit_codes.js';

export type CommandName = 'select' | 'get' | 'validate' | 'count';

/** Everything a command needs from the command line. */
export interface CommandLine {
  readonly command: CommandName;
  /** The paths as written (what `--with-path` shows). */
  readonly paths: readonly string[];
  /** The native selectors the paths lower to (several for a union; js/query/lower.ts). */
  readonly nativePaths_: readonly string[];
  /** The path (as written) of each native selector. */
  readonly selectorPaths_: readonly string[];
  /**
   * Per native selector, its PATH's index, when two selectors of one PATH may select the same node (a union in
   * arrival order): the node is written once per PATH (split_commands.ts); else null.
   */
  readonly queries_: readonly number[] | null;
  /** The unions held back for RFC order (js/parse/match_order.ts); null: none. */
  readonly held_: HeldUnions | null;
  /** Per native selector, the tail JS evaluates on each node it selects (js/query/split.ts); null: none has one. */
  readonly tails_: readonly (QueryTail | null)[] | null;
  /** Per native selector, the window JS keeps over each array's elements it selects; null: none has one. */
  readonly windows_: readonly (ArrayWindowSpec | null)[] | null;
  /** A file name, `-` (standard input) or an http(s) URL; undefined when none was given. */
  readonly input: string | undefined;
  readonly help: boolean;
  /** true: shown; false: hidden; undefined: shown when standard error is a terminal. */
  readonly progress: boolean | undefined;
  readonly ndjson: boolean;
  /** --skip-invalid (with --ndjson): bad lines reported on standard error and skipped. */
  readonly skipInvalid_: boolean;
  readonly array: boolean;
  readonly withPath: boolean;
  /** --with-normalized-path: the markers and the tracker of each node's normalized path; null without it. */
  readonly normalized_: NormalizedPlan | null;
  /** Stop after this many elements; undefined: no limit. */
  readonly limit: number | undefined;
  /** --max-depth and --max-element-bytes, or the library's defaults. */
  readonly limits: ParserLimits;
}

/** What each command accepts: its paths (exactly one, or one or more, or none) and its own options. */
const COMMANDS: Readonly<Record<CommandName, { readonly paths: 'one' | 'many' | 'none'; readonly flags: string[] }>> = {
  select: {
    paths: 'many',
    flags: ['--array', '--with-path', '--with-normalized-path', '--ndjson', '--skip-invalid', '--limit', '--order'],
  },
  get: { paths: 'one', flags: [] },
  validate: { paths: 'none', flags: ['--ndjson', '--skip-invalid'] },
  count: { paths: 'one', flags: ['--ndjson', '--skip-invalid', '--order'] },
};

const COMMON_FLAGS = ['--help', '-h', '--progress', '--no-progress', '--max-depth', '--max-element-bytes'];
const VALUE_FLAGS = new Set(['--limit', '--max-depth', '--max-element-bytes', '--order']);
const ORDERS: readonly PathOrder[] = ['rfc', 'arrival'];

export function isCommandName(name: string): name is CommandName {
  return Object.hasOwn(COMMANDS, name);
}

/** Runs a check of the library; the TypeError it throws for misuse becomes a usage error (exit 2). */
function check<T>(run: () => T): T {
  try {
    return run();
  } catch (error) {
    if (error instanceof TypeError) throw new UsageError(error);
    throw error;
  }
}

function integer(api: ApiName, flag: string, text: string | undefined, min: number, max: number): number {
  if (text === undefined || text === '') throw new UsageError(misuse(api, `${flag} needs a number`));
  // A number as written, so that the message shows `got -1` or `got 2.5`; anything else as its text.
  const value = /^[-+]?\d+(\.\d*)?$/.test(text) ? Number(text) : text;
  return check(() => integerIn(api, flag, value, min, max));
}

/** `get`'s path (a singular query, as openJson's get takes it), checked; as written. */
function getPath(api: ApiName, path: string): string {
  check(() => singularSteps(api, 'PATH', path, '`sluice get`', '`sluice select`'));
  return path;
}

/** The native selectors of the paths of `select` and `count`, the path each reports, and their tails and windows. */
function lowered(api: ApiName, paths: readonly string[], order: PathOrder, skipInvalid: boolean) {
  const out = check(() => lowerPaths(api, paths, order, (i) => (i < 0 ? 'the PATHs' : 'PATH'), '--order arrival'));
  const windowed = out.selectorWindows_?.findIndex((window) => window !== null) ?? -1;
  if (skipInvalid && windowed >= 0) {
    // A skipped line's array would look complete when the next line's first element comes.
    const s = out.selectorWindows_![windowed]!.selector;
    throw new UsageError(
      misuse(
        api,
        `PATH ${JSON.stringify(out.selectorPaths_[windowed])} at ${s.at}: ` +
          `${s.kind === 'index' ? `the negative index ${s.index}` : 'a slice with a negative part'} is taken from ` +
          'a window over each array, which --skip-invalid would cut short; remove --skip-invalid, or select the ' +
          'whole arrays',
      ),
    );
  }
  if (skipInvalid && out.heldUnions_ !== null) {
    // A skipped line would leave its container open, and what it holds would go with the next line's.
    const path = paths[out.selectorPaths_.findIndex((_, i) => out.heldUnions_!.unions[i]! >= 0)] ?? paths[0]!;
    throw new UsageError(
      misuse(
        api,
        `PATH ${JSON.stringify(path)}: in RFC 9535 order its union's matches are held until their container ends, ` +
          'which --skip-invalid could cut short; remove --skip-invalid, or use --order arrival',
      ),
    );
  }
  return out;
}

/** --with-normalized-path's markers, within the native limits, and not with --skip-invalid after a `..`. */
function normalizedPlan(api: ApiName, plan: (subject: string) => NormalizedPlan, skipInvalid: boolean): NormalizedPlan {
  const out = check(() => plan('--with-normalized-path'));
  if (skipInvalid && out.ends_.length > 0) {
    // A skipped line leaves the values it opened without their end markers.
    throw new UsageError(
      misuse(
        api,
        '--with-normalized-path with .. cannot be used with --skip-invalid (lines skipped leave values open)',
      ),
    );
  }
  return out;
}

function orderOf(api: ApiName, text: string | undefined): PathOrder {
  if (text === undefined) return 'rfc';
  if ((ORDERS as readonly string[]).includes(text)) return text as PathOrder;
  throw new UsageError(misuse(api, `--order must be rfc or arrival, got ${JSON.stringify(text)}`));
}

/** Parses the arguments after the command name. */
export function parseCommandLine(command: CommandName, args: readonly string[]): CommandLine {
  const api = `sluice ${command}`;
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
        throw new UsageError(misuse(api, `unknown option ${name}`));
      }
      if (VALUE_FLAGS.has(name)) {
        const value = eq > 0 ? arg.slice(eq + 1) : args[++i];
        flags.set(name, value ?? '');
      } else {
        if (eq > 0) throw new UsageError(misuse(api, `${name} takes no value`));
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
      throw new UsageError(
        misuse(api, `one input at most, got ${inputs.length}: ${inputs.join(' ')} (paths start with $)`),
      );
    }
    if (spec.paths === 'none' && paths.length > 0) throw new UsageError(misuse(api, 'takes no path'));
    if (spec.paths === 'one' && paths.length !== 1) {
      throw new UsageError(misuse(api, `takes one PATH (starting with $), got ${paths.length}`));
    }
    if (spec.paths === 'many' && paths.length === 0) {
      throw new UsageError(misuse(api, `needs at least one PATH (starting with $), e.g. '$[*]'`));
    }
    if (paths.length > MAX_SELECTORS) {
      throw new UsageError(misuse(api, `${paths.length} PATHs given; at most ${MAX_SELECTORS} are supported`));
    }
    if (flags.has('--skip-invalid') && !flags.has('--ndjson')) {
      throw new UsageError(misuse(api, '--skip-invalid needs --ndjson'));
    }
    if (flags.has('--array') && flags.has('--with-path')) {
      throw new UsageError(misuse(api, '--array and --with-path cannot be used together'));
    }
    if (flags.has('--array') && flags.has('--with-normalized-path')) {
      throw new UsageError(misuse(api, '--array and --with-normalized-path cannot be used together'));
    }
  }
  const value = (name: string): string | undefined => {
    const v = flags.get(name);
    return v === true ? undefined : v;
  };
  const limit = (flag: string, name: keyof typeof LIMITS): number => {
    const { min, max, fallback } = LIMITS[name];
    return flags.has(flag) ? integer(api, flag, value(flag), min, max) : fallback;
  };
  const native =
    help || command === 'validate'
      ? {
          nativePaths_: [],
          selectorPaths_: [],
          selectorQueries_: null,
          heldUnions_: null,
          selectorTails_: null,
          selectorWindows_: null,
        }
      : command === 'get'
        ? {
            nativePaths_: [getPath(api, paths[0]!)],
            selectorPaths_: paths,
            selectorQueries_: null,
            heldUnions_: null,
            selectorTails_: null,
            selectorWindows_: null,
          }
        : lowered(
            api,
            paths,
            orderOf(api, flags.has('--order') ? (value('--order') ?? '') : undefined),
            flags.has('--skip-invalid'),
          );
  // Only select takes the flag, and its paths are lowered.
  const normalized_ =
    !help && flags.has('--with-normalized-path')
      ? normalizedPlan(api, (native as LoweredPaths).planNormalized_!, flags.has('--skip-invalid'))
      : null;
  return {
    command,
    paths,
    nativePaths_: native.nativePaths_,
    selectorPaths_: native.selectorPaths_,
    queries_: native.selectorQueries_,
    held_: native.heldUnions_,
    tails_: native.selectorTails_,
    windows_: native.selectorWindows_,
    input: inputs[0],
    help,
    progress: flags.has('--no-progress') ? false : flags.has('--progress') ? true : undefined,
    ndjson: flags.has('--ndjson'),
    skipInvalid_: flags.has('--skip-invalid'),
    array: flags.has('--array'),
    withPath: flags.has('--with-path'),
    normalized_,
    limit: flags.has('--limit') ? integer(api, '--limit', value('--limit'), 0, Number.MAX_SAFE_INTEGER) : undefined,
    limits: {
      maxDepth: limit('--max-depth', 'maxDepth'),
      maxElementBytes: limit('--max-element-bytes', 'maxElementBytes'),
    },
  };
}
