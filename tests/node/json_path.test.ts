// The paths the parsers take are RFC 9535 queries (js/query/parser.ts) lowered to the native grammar
// (js/query/lower.ts, src/select/selector.cpp): every query the JS side accepts and lowers, the native compiler
// accepts too, and a linear one selects there exactly what its steps name, whatever the user's spelling. Every
// other path is refused at the call, naming the option and the position.
import { describe, expect, test } from 'vitest';
import { createParser, parseJsonArray } from '../../dist/index.js';
// @ts-expect-error parseQuery and lowerQuery are @internal: stripped from the shipped .d.ts, tested all the same.
import { parseQuery } from '../../dist/query/parser.js';
// @ts-expect-error @internal, as above
import { lowerQuery } from '../../dist/query/lower.js';
import { nativePathVerdict } from '../../dist/internal.js';
import { createRng } from '../support/random_json.mjs';

type Step = string | number | null;
type Rng = ReturnType<typeof createRng>;

const SEED = Number(process.env.SLUICE_TEST_SEED ?? 0x9a7);
const GENERATED = 20_000;

interface ParsedSelector {
  kind: string;
  name?: string;
  index?: number;
}

/** The steps of a linear path (child segments of one name, `*` or index >= 0), or null when it is none or no query. */
function linearSteps(path: string): Step[] | null {
  let segments: { descendant: boolean; selectors: ParsedSelector[] }[];
  try {
    segments = parseQuery(path, 'test', 'path').segments;
  } catch {
    return null;
  }
  const steps: Step[] = [];
  for (const { descendant, selectors } of segments) {
    const s = selectors[0]!;
    if (descendant || selectors.length > 1) return null;
    if (s.kind === 'name') steps.push(s.name!);
    else if (s.kind === 'wildcard') steps.push(null);
    else if (s.kind === 'index' && s.index! >= 0) steps.push(s.index!);
    else return null;
  }
  return steps;
}

/** The native selectors of `path` in arrival order, or the TypeError's message. */
function lowered(path: string): string[] | string {
  try {
    return lowerQuery('test', 'path', path, 'arrival', "order: 'arrival'").selectors as string[];
  } catch (error) {
    expect(error).toBeInstanceOf(TypeError);
    return (error as TypeError).message;
  }
}

// MARK: generated paths

const NAME_CHARS = ['a', 'Z', '_', '0', '9', 'é', '中', '😀', '\ud800', '\udc00'];
const QUOTED_PIECES = [
  'a',
  ' ',
  'é',
  '😀',
  '\ud83d',
  '\ude00',
  '\u0001',
  '\t',
  '\\n',
  '\\t',
  '\\b',
  '\\f',
  '\\r',
  '\\/',
  '\\\\',
  '\\"',
  "\\'",
  '\\u0041',
  '\\u00e9',
  '\\ud83d\\ude00',
  '\\ud800',
  '\\udc00',
  '\\ud800\\u0041',
  '\\ud800\\uZZZZ',
  '\\uD83D',
  '\\u12',
  '\\x',
  '\\',
  '"',
  "'",
  '$',
  '.',
  '[',
  ']',
  '*',
];
const INDICES = [
  '0',
  '1',
  '7',
  '42',
  '00',
  '01',
  '-1',
  '9007199254740991',
  '9007199254740992',
  '9007199254740993',
  '9007199254740999',
  '10000000000000000',
  '90071992547409910',
  '99999999999999999999',
];
const BLANKS = ['', '', ' ', '\t', '\n', '\r', '  ', '\u00a0', '\v'];
const NOISE = [...'$.*[]\'"\\ \t0123456789azAZ_-:?@,()'].concat(['é', '😀', '\ud800', '\udc00', '\u0000', '\u001f']);

function randomName(rng: Rng): string {
  let out = rng.pick(NAME_CHARS);
  for (let n = rng.int(4); n > 0; n--) out += rng.pick(NAME_CHARS);
  return out;
}

function randomStep(rng: Rng): string {
  const blank = () => rng.pick(BLANKS);
  switch (rng.int(6)) {
    case 0:
      return `.${randomName(rng)}`;
    case 1:
      return rng.chance(0.5) ? '.*' : `[${blank()}*${blank()}]`;
    case 2:
      return `[${blank()}${rng.pick(INDICES)}${blank()}]`;
    default: {
      const quote = rng.chance(0.5) ? "'" : '"';
      let body = '';
      for (let n = rng.int(5); n > 0; n--) body += rng.pick(QUOTED_PIECES);
      return `[${blank()}${quote}${body}${rng.chance(0.95) ? quote : ''}${blank()}]`;
    }
  }
}

/** A path of the subset (mostly), then sometimes one to three edits anywhere in it. */
function randomPath(rng: Rng): string {
  let path = rng.chance(0.97) ? '$' : rng.pick(['', 'a', '@', '$$']);
  for (let n = rng.int(5); n > 0; n--) path += randomStep(rng);
  if (rng.chance(0.4)) {
    for (let edits = rng.range(1, 3); edits > 0; edits--) {
      const at = rng.int(path.length + 1);
      const kind = rng.int(3);
      const noise = rng.pick(NOISE);
      if (kind === 0) path = path.slice(0, at) + noise + path.slice(at);
      else if (kind === 1) path = path.slice(0, at) + path.slice(at + 1);
      else path = path.slice(0, at) + noise + path.slice(at + 1);
    }
  }
  return path;
}

const FIXED = [
  '',
  'a',
  '$',
  '$.',
  '$[',
  '$[*',
  '$..a',
  '$[?(@.a)]',
  '$[1:2]',
  "$['a','b']",
  '$[-1]',
  '$[a]',
  '$["unterminated]',
  '$.a b',
  '$.a.',
  '[*]',
  '$$',
  '$.*',
  '$[*]',
  "$['it\\'s']",
  '$["a\\"b"]',
  '$[""]',
  '$.é',
  '$["\\ud83d\\ude00"]',
  '$.a\ud800',
  "$['\ud800']",
  '$["\\ud800"]',
  '$[9007199254740992]',
  '$[9007199254740993]',
  '$[ 3 ]',
  '$[\t*\n]',
  '$["\\u00"]',
  '$["\\',
  '$["\\q"]',
  '$["\u0001"]',
  '$.1a',
  '$._1',
  '$[01]',
  '$[0]',
];

function generatedPaths(): string[] {
  const rng = createRng(SEED);
  const paths = [...FIXED];
  for (let i = 0; i < GENERATED; i++) paths.push(randomPath(rng));
  return paths;
}

/** JSON text in which `steps` select exactly one value, `7` (null when an index is too large to write out). */
function documentFor(steps: readonly Step[]): string | null {
  let value = '7';
  for (let k = steps.length - 1; k >= 0; k--) {
    const step = steps[k]!;
    if (step === null) value = `[${value}]`;
    else if (typeof step === 'number') {
      if (step > 64) return null;
      value = `[${'0,'.repeat(step)}${value}]`;
    } else value = `{"\\u0000":0,${JSON.stringify(step)}:${value}}`; // a decoy member no path here can name
  }
  return value;
}

describe('the JS front end and the native selector compiler agree', () => {
  const paths = generatedPaths();

  test(`${paths.length} paths (seed ${SEED}): each lowered selector is accepted natively`, () => {
    let accepted = 0;
    let refused = 0;
    for (const path of paths) {
      const selectors = lowered(path);
      if (typeof selectors === 'string') {
        refused++;
        expect(selectors).toMatch(/^test: path ".*" (at \d+: |expands to )/s);
        continue;
      }
      accepted++;
      for (const selector of selectors)
        expect({ path, selector, at: nativePathVerdict(selector) }).toMatchObject({ at: -1 });
    }
    // Both outcomes are well represented, or the comparison proves little.
    expect(accepted).toBeGreaterThan(paths.length / 5);
    expect(refused).toBeGreaterThan(paths.length / 5);
  });

  test('linear paths: the parser selects what their steps name, whatever their spelling', () => {
    let checked = 0;
    for (const path of paths) {
      const steps = linearSteps(path);
      if (steps === null) continue;
      const text = documentFor(steps);
      if (text === null) continue;
      const parser = createParser({ path, output: 'text' });
      expect({ path, selected: [...parser.push(text), ...parser.end()] }).toEqual({ path, selected: ['7'] });
      checked++;
    }
    // About a fifth of the paths are linear with indices small enough to write (19.5 to 20.2 % over 14 seeds).
    expect(checked).toBeGreaterThan(paths.length / 6);
  });
});

describe('names with lone surrogates', () => {
  test('are no RFC 9535 names, raw or escaped: refused at the call', () => {
    for (const path of ["$['\ud800'][*]", '$.a\udc00[*]', '$["\\ud800"][*]']) {
      expect(() => createParser({ path })).toThrow(/^createParser\(\): options\.path ".*" at \d+: expected /);
    }
  });

  test('a pair, raw or escaped, selects its member', () => {
    const doc = '{"\\ud83d\\ude00":[3]}';
    expect(createParser({ path: '$["\\ud83d\\ude00"][*]' }).push(doc)).toEqual([3]);
    expect(createParser({ path: '$["\ud83d\ude00"][*]' }).push(doc)).toEqual([3]);
    expect(createParser({ path: '$.\ud83d\ude00[*]' }).push(doc)).toEqual([3]);
  });
});

/** What `run` threw (its class is compared by toEqual, with the message). */
function thrown(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('nothing was thrown');
}

describe('a path that is no query is refused at the call, naming the option', () => {
  test.each(FIXED.filter((path) => typeof lowered(path) === 'string' && !String(lowered(path)).includes('stream')))(
    '%j',
    (path) => {
      const tail = String(lowered(path)).slice(`test: path ${JSON.stringify(path)}`.length);
      expect(tail).toMatch(/^ at \d+: /);
      expect(thrown(() => createParser({ path }))).toEqual(
        new TypeError(`createParser(): options.path ${JSON.stringify(path)}${tail}`),
      );
      expect(thrown(() => parseJsonArray('[]', { paths: ['$', path] }))).toEqual(
        new TypeError(`parseJsonArray(): options.paths[1] ${JSON.stringify(path)}${tail}`),
      );
    },
  );
});
