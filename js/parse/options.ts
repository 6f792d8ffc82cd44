// The parser options' resolution: every mistake (a path that is no RFC 9535 query or does not stream included) is a
// TypeError naming the API, the option and what it got, thrown before any input is read. Their public types:
// option_types.ts.
import {
  FLAG_COVER_BATCHES,
  FLAG_NDJSON,
  FLAG_SKIP_INVALID,
  FLAG_VALUE_BATCHES,
  MAX_SELECTORS,
} from '../native/contract.js';
import {
  checkOptions,
  misuse,
  mustBe,
  optionalBoolean,
  optionalFunction,
  optionalOneOf,
  resolveLimits,
  type ApiName,
  type OptionsRecord,
} from '../validate.js';
import type { ParserLimits } from '../errors.js';
import { UnionOrder, type HeldUnions } from './match_order.js';
import { lowerQuery, type NativeStep, type PathOrder } from '../query/lower.js';
import type { ArrayWindowSpec, QueryTail } from '../query/split.js';
import { checkTails, type TailOptions } from './tail_options.js';
import { planNormalizedPaths, type NormalizedPlan } from './normalized_paths.js';
import { windowsOf, type ArrayWindow } from './array_window.js';
import { INTEGERS_NUMBER, resolveIntegers, type IntegersMode } from './integers.js';
import type { InvalidLine, OutputKind, ParserOptions, Reviver } from './option_types.js';

/** @internal `output: 'value'`, as a small integer compared on the hot path. */
export const MODE_VALUE = 0;
/** @internal `output: 'bytes'`. */
export const MODE_BYTES = 1;
/** @internal `output: 'text'`. */
export const MODE_TEXT = 2;
/** @internal */
export type Mode = typeof MODE_VALUE | typeof MODE_BYTES | typeof MODE_TEXT;

/**
 * @internal The largest element delivered as a string (its text, or the text JSON.parse reads): V8's longest string
 * (2^29 - 24 UTF-16 units; Firefox and JavaScriptCore hold more), which that many bytes of UTF-8 never exceed. The
 * default maxElementBytes (256 MiB) is below it.
 */
export const MAX_STRING_ELEMENT_BYTES = 2 ** 29 - 24;

/**
 * @internal The limits of a parser whose elements become strings: maxElementBytes lowered to
 * MAX_STRING_ELEMENT_BYTES, so that an element too long for a string is a JsonLimitError at its exact position
 * rather than the engine's error after the whole element was read.
 */
export function stringLimits<L extends ParserLimits>(limits: L): L {
  if (limits.maxElementBytes <= MAX_STRING_ELEMENT_BYTES) return limits;
  return { ...limits, maxElementBytes: MAX_STRING_ELEMENT_BYTES, stringLimited_: true };
}

/** @internal Options after validation, with defaults applied. */
export interface ResolvedOptions extends ParserLimits {
  /** The API that was called, named in the messages of later misuse (a chunk of the wrong type). */
  readonly api: ApiName;
  /** The queries as the user wrote them. */
  readonly paths: readonly string[];
  /** The native selectors they lower to (js/query/lower.ts): several for a union, in the order of `paths`. */
  readonly nativePaths_: readonly string[];
  /** The user's query of each native selector, reported in `{ path, key, value }`. */
  readonly selectorPaths_: readonly string[];
  /**
   * In arrival order, when two native selectors of one query may select the same node: each native selector's
   * query (its index in `paths`), so that the node is delivered once; else null.
   */
  readonly selectorQueries_: readonly number[] | null;
  /**
   * Each native selector's tail, evaluated in JS on each node it selects (js/query/split.ts); null when no query
   * has one, so that the other queries pay nothing.
   */
  readonly selectorTails_: readonly (QueryTail | null)[] | null;
  /**
   * Each native selector's window over the elements of the arrays it selects (a segment counted from the end:
   * js/parse/array_window.ts), one object per query; null when no query has one.
   */
  readonly selectorWindows_: readonly (ArrayWindowSpec | null)[] | null;
  readonly makeWindows_: (() => (ArrayWindow | null)[]) | null;
  /** options.withNormalizedPath: the markers the parser adds and its tracker of their keys; else null. */
  readonly normalized_: NormalizedPlan | null;
  /** The unions held back for RFC order (match_order.ts), or null. */
  readonly heldUnions_: HeldUnions | null;
  readonly makeUnionOrder_: ((markers: number) => UnionOrder) | null;
  /** Which option named the paths, for messages: `path` or `paths`. */
  readonly pathOption: 'path' | 'paths';
  readonly mode: Mode;
  readonly reviver: Reviver | undefined;
  readonly integers: IntegersMode;
  /** Elements carry `path` and `key` (`withPath` or `paths`). */
  readonly wrap: boolean;
  /** Elements carry `offset` and `length` (`withOffset`). */
  readonly withOffset: boolean;
  readonly flags: number;
  readonly onInvalidLine: ((line: InvalidLine) => void) | undefined;
}

/** @internal The options {@link ParserOptions} defines, in the order messages list them. */
export const PARSER_OPTIONS = [
  'path',
  'paths',
  'order',
  'output',
  'reviver',
  'integers',
  'withPath',
  'withOffset',
  'withNormalizedPath',
  'ndjson',
  'maxDepth',
  'maxElementBytes',
  'onInvalidLine',
] as const satisfies readonly (keyof ParserOptions)[];

type Options = OptionsRecord<(typeof PARSER_OPTIONS)[number]>;

const OUTPUTS: readonly OutputKind[] = ['value', 'bytes', 'text'];
const ORDERS: readonly PathOrder[] = ['rfc', 'arrival'];
/**
 * At most this many steps in the native selectors that have a descendant segment, all together: a bit each of the
 * automaton's 64-bit position mask (`max_positions`, src/select/selector_set.h); addPath refuses beyond.
 */
const MAX_DESCENDANT_STEPS = 64;

/** @internal The native selectors of `paths` (named by `pathOption` in messages), with whom each reports. */
export interface LoweredPaths {
  readonly nativePaths_: string[];
  readonly selectorPaths_: string[];
  readonly selectorQueries_: number[] | null;
  readonly selectorTails_: (QueryTail | null)[] | null;
  readonly selectorWindows_: (ArrayWindowSpec | null)[] | null;
  /**
   * A new parser's windows (array_window.ts), or null. Reached only through lowerPaths, as checkTails_ is, so that
   * the parsers of native paths given as they are (pathsAsGiven) do not bundle them.
   */
  readonly makeWindows_: (() => (ArrayWindow | null)[]) | null;
  /**
   * With a tail, a window or a held union: refuses the options it cannot honour (tail_options.ts). Reached only
   * through lowerPaths, so that parsers of native paths given as they are (pathsAsGiven) do not bundle it.
   */
  readonly checkTails_: ((options: TailOptions) => void) | null;
  /**
   * options.withNormalizedPath's markers (normalized_paths.ts), its name in messages given. Reached only through
   * lowerPaths, as checkTails_ is; null for native paths given as they are.
   */
  readonly planNormalized_: ((subject: string) => NormalizedPlan) | null;
  /** The unions held back for RFC order (match_order.ts), or null: none. */
  readonly heldUnions_: HeldUnions | null;
  /** Their order's keeper for a new parser, given its first container marker; reached only through lowerPaths. */
  readonly makeUnionOrder_: ((markers: number) => UnionOrder) | null;
}

/**
 * @internal Lowers each of `paths` to native selectors (js/query/lower.ts), within MAX_SELECTORS in all.
 * `subject(i)` names path i in messages, `orderHint` how arrival order is asked for.
 */
export function lowerPaths(
  api: ApiName,
  paths: readonly string[],
  order: PathOrder,
  subject: (i: number) => string,
  orderHint: string,
): LoweredPaths {
  const nativePaths: string[] = [];
  const selectorPaths_: string[] = [];
  const queries: number[] = [];
  const tails: (QueryTail | null)[] = [];
  const windows: (ArrayWindowSpec | null)[] = [];
  const steps: (readonly NativeStep[])[] = [];
  const containers: string[] = [];
  const releases: number[] = [];
  const lasts: (readonly number[] | null)[] = [];
  const unions: number[] = [];
  let held = 0;
  const stages: number[] = [];
  let tailed = false;
  let windowed = false;
  let repeats = false;
  let descendantSteps = 0;
  for (let i = 0; i < paths.length; i++) {
    const lowered = lowerQuery(api, subject(i), paths[i]!, order, orderHint);
    repeats ||= lowered.mayRepeat;
    tailed ||= lowered.tail !== null;
    windowed ||= lowered.window !== null;
    descendantSteps += lowered.descendantSteps;
    steps.push(...lowered.steps);
    const union = lowered.held;
    if (union !== null) {
      containers.push(...union.containers);
      for (const _ of union.containers) releases.push(held);
      lasts.push(union.lasts);
      held++;
    }
    for (const [k, selector] of lowered.selectors.entries()) {
      unions.push(union === null ? -1 : held - 1);
      stages.push(union?.stages[k] ?? 0);
      nativePaths.push(selector);
      selectorPaths_.push(paths[i]!);
      queries.push(i);
      tails.push(lowered.tail);
      windows.push(lowered.window);
    }
  }
  if (nativePaths.length + containers.length > MAX_SELECTORS) {
    const markers = containers.length === 0 ? '' : ', and one per container it is held in';
    throw misuse(
      api,
      `${subject(-1)} expand to ${nativePaths.length + containers.length} native selectors (a union counts one ` +
        `per combination${markers}); at most ${MAX_SELECTORS} are supported`,
    );
  }
  if (held > 0 && (tailed || windowed)) {
    throw misuse(api, `${subject(-1)}: a union held for RFC order and a query evaluated in JS need two parsers`);
  }
  const unionsHeld = held === 0 ? null : { containers, releases, unions, stages, lasts };
  if (descendantSteps > MAX_DESCENDANT_STEPS) {
    throw misuse(
      api,
      `${subject(paths.length === 1 ? 0 : -1)} ${paths.length === 1 ? `${JSON.stringify(paths[0])} ` : ''}` +
        `needs ${descendantSteps} steps of native selectors with a descendant segment (each segment a step, ` +
        `a union counting one selector per combination); at most ${MAX_DESCENDANT_STEPS} are supported`,
    );
  }
  return {
    nativePaths_: nativePaths,
    selectorPaths_,
    selectorQueries_: repeats ? queries : null,
    selectorTails_: tailed ? tails : null,
    selectorWindows_: windowed ? windows : null,
    makeWindows_: windowed ? () => windowsOf(windows) : null,
    checkTails_:
      tailed || windowed
        ? (o) => checkTails(api, tails, windows, selectorPaths_, subject, paths, o)
        : held > 0
          ? (o) => {
              // A skipped line would leave its container open, and what it holds would go with the next line's.
              if (o.onInvalidLine) throw misuse(api, 'a union held for RFC order refuses options.onInvalidLine');
            }
          : null,
    planNormalized_: (subject) =>
      planNormalizedPaths(api, subject, steps, descendantSteps, MAX_DESCENDANT_STEPS, containers.length),
    heldUnions_: unionsHeld,
    makeUnionOrder_: unionsHeld === null ? null : (markers) => new UnionOrder(unionsHeld, markers),
  };
}

function resolvePaths(api: ApiName, options: Options, ndjson: boolean): readonly string[] {
  const { path, paths } = options;
  if (paths !== undefined) {
    if (path !== undefined) throw misuse(api, 'options.path and options.paths cannot be used together');
    if (!Array.isArray(paths)) throw mustBe(api, 'options.paths', 'an array of strings', paths);
    if (paths.length === 0) throw misuse(api, 'options.paths must hold at least one path');
    if (paths.length > MAX_SELECTORS) {
      throw misuse(api, `options.paths holds ${paths.length} paths; at most ${MAX_SELECTORS} are supported`);
    }
    for (let i = 0; i < paths.length; i++) {
      if (typeof paths[i] !== 'string') throw mustBe(api, `options.paths[${i}]`, 'a string', paths[i]);
    }
    return paths.slice() as string[];
  }
  if (path === undefined) return [ndjson ? '$' : '$[*]'];
  if (typeof path !== 'string') throw mustBe(api, 'options.path', 'a string', path);
  return [path];
}

/**
 * @internal Paths already in the native grammar, each its own selector: for sluice's own parsers (the raw JSON
 * validator), which so do not bundle the query parser.
 */
export function pathsAsGiven(_api: ApiName, paths: readonly string[]): LoweredPaths {
  return {
    nativePaths_: [...paths],
    selectorPaths_: [...paths],
    selectorQueries_: null,
    selectorTails_: null,
    selectorWindows_: null,
    makeWindows_: null,
    checkTails_: null,
    planNormalized_: null,
    heldUnions_: null,
    makeUnionOrder_: null,
  };
}

/**
 * @internal Validates the options of `api` (`createParser()`, `parseJsonArray()`, `new JsonArrayStream()`) at the
 * call, compiles their paths with `lower` (lowerPaths for the user's), and applies the defaults.
 */
export function resolveOptions(
  api: ApiName,
  input: ParserOptions | undefined,
  lower: typeof lowerPaths,
): ResolvedOptions {
  const options: Options = checkOptions(api, input, PARSER_OPTIONS);
  const ndjson = optionalBoolean(api, options, 'ndjson') ?? false;
  const withPath = optionalBoolean(api, options, 'withPath');
  const withOffset = optionalBoolean(api, options, 'withOffset') ?? false;
  const withNormalizedPath = optionalBoolean(api, options, 'withNormalizedPath') ?? false;
  const paths = resolvePaths(api, options, ndjson);
  const pathOption = options.paths !== undefined ? 'paths' : 'path';
  const order = optionalOneOf(api, options, 'order', ORDERS) ?? 'rfc';
  const lowered = lower(
    api,
    paths,
    order,
    (i) => (pathOption === 'path' ? 'options.path' : i < 0 ? 'options.paths' : `options.paths[${i}]`),
    "order: 'arrival'",
  );
  if (options.paths !== undefined && withPath === false) {
    throw misuse(api, 'options.paths always emits { path, key, value }; remove withPath: false');
  }

  const output = optionalOneOf(api, options, 'output', OUTPUTS) ?? 'value';
  const mode: Mode = output === 'value' ? MODE_VALUE : output === 'bytes' ? MODE_BYTES : MODE_TEXT;

  const reviver = optionalFunction(api, options, 'reviver') as Reviver | undefined;
  if (reviver !== undefined && mode !== MODE_VALUE) {
    throw misuse(api, `options.reviver applies to output 'value' only, not '${output}'`);
  }
  const integers = resolveIntegers(api, options, 'integers');
  if (integers !== INTEGERS_NUMBER && mode !== MODE_VALUE) {
    throw misuse(api, `options.integers applies to output 'value' only, not '${output}'`);
  }

  lowered.checkTails_?.({ output, reviver, integers, withOffset, onInvalidLine: options.onInvalidLine !== undefined });

  const onInvalidLine = optionalFunction(api, options, 'onInvalidLine') as ResolvedOptions['onInvalidLine'];
  if (onInvalidLine !== undefined && !ndjson) throw misuse(api, 'options.onInvalidLine needs ndjson: true');
  let normalized_: NormalizedPlan | null = null;
  if (withNormalizedPath) {
    if (lowered.planNormalized_ === null) throw misuse(api, 'options.withNormalizedPath is not supported here');
    normalized_ = lowered.planNormalized_('options.withNormalizedPath');
    if (onInvalidLine !== undefined && normalized_.ends_.length > 0) {
      // A skipped line leaves the values it opened without their end markers.
      throw misuse(
        api,
        'options.withNormalizedPath with .. cannot be used with options.onInvalidLine (lines skipped leave values open)',
      );
    }
  }
  let flags = ndjson ? FLAG_NDJSON : 0;
  if (onInvalidLine !== undefined) flags |= FLAG_SKIP_INVALID;
  if (mode === MODE_VALUE) {
    // With a reviver each element is parsed on its own, from its element record, so no batch text is needed.
    if (reviver === undefined) flags |= FLAG_VALUE_BATCHES;
  } else {
    flags |= FLAG_COVER_BATCHES;
  }

  const resolved: ResolvedOptions = {
    api,
    paths,
    ...lowered,
    pathOption,
    mode,
    reviver,
    integers,
    wrap: withPath === true || options.paths !== undefined,
    withOffset,
    normalized_,
    flags,
    onInvalidLine,
    ...resolveLimits(api, options),
  };
  return mode === MODE_BYTES ? resolved : stringLimits(resolved);
}
