// Seeded random RFC 9535 queries from the whole grammar, and small documents they have something to find in, for
// the differential test against json-p3 (tests/node/query_differential.test.ts) and, later, for checking the
// streamed engine against the reference evaluator. Names come from a small alphabet shared by both, so that
// queries hit; every query is well-typed (the parser's refusals are covered by the compliance suite).

/** Member names: plain, an index-like one, ones that need quoting and escaping in a normalized path. */
export const NAMES = ['a', 'b', 'c', '0', 'x y', "q'", '\n', 'é', '\u0001'];

const STRINGS = ['', 'a', 'ab', 'b', 'ba', 'abc', 'A', 'é', '\u{1F600}', '\uffff', 'a\nb', '10', '9'];
const NUMBERS = [0, 1, -1, 2, 3, 10, 1.5, -2.5, 1e3, 100];
const PATTERNS = [
  'a',
  'a.*',
  '.*b',
  '[ab]+',
  'b?',
  'a|b',
  '.',
  '..',
  '[^a]*',
  '\\p{Lu}',
  'a{1,2}',
  '(ab)*',
  '\\d',
  '[',
];

/** A random JSON value (plain JS), at most `depth` containers deep. */
export function randomValue(rng, depth = 4) {
  const r = rng.int(depth > 0 ? 10 : 6);
  if (r === 0) return rng.pick(NUMBERS);
  if (r === 1) return rng.pick(STRINGS);
  if (r === 2) return rng.pick([true, false, null]);
  if (r === 3) return rng.int(100) - 20;
  if (r <= 5) return rng.pick(STRINGS.slice(0, 6));
  if (r <= 7) return Array.from({ length: rng.int(6) }, () => randomValue(rng, depth - 1));
  const object = {};
  for (let n = rng.int(5); n > 0; n--) object[rng.pick(NAMES)] = randomValue(rng, depth - 1);
  return object;
}

/** A document with a container at its root (a scalar root is in the compliance suite). */
export function randomDocument(rng) {
  for (;;) {
    const value = randomValue(rng, 4);
    if (typeof value === 'object' && value !== null) return value;
  }
}

/** Blanks where the grammar allows them, now and then. */
const blank = (rng) => (rng.chance(0.15) ? rng.pick([' ', '  ', '\t', '\n']) : '');

/** A name as a quoted string literal, in either quote, with escapes where needed or now and then. */
function quoted(rng, name) {
  const quote = rng.chance(0.5) ? "'" : '"';
  let out = '';
  for (const ch of name) {
    const c = ch.codePointAt(0);
    if (ch === quote || ch === '\\') out += `\\${ch}`;
    else if (c < 0x20) out += ch === '\n' ? '\\n' : `\\u${c.toString(16).padStart(4, '0')}`;
    else if (rng.chance(0.05)) out += `\\u${c.toString(16).padStart(4, '0').toUpperCase()}`;
    else out += ch;
  }
  return quote + out + quote;
}

const isShorthand = (name) => /^[A-Za-z_\u0080-\uffff][A-Za-z0-9_\u0080-\uffff]*$/u.test(name);
const int = (rng) => rng.pick([0, 1, 2, 3, -1, -2, -3, 5, -6, 100, -100]);

function slice(rng) {
  const part = () => (rng.chance(0.6) ? String(int(rng)) : '');
  let text = `${part()}${blank(rng)}:${blank(rng)}${part()}`;
  if (rng.chance(0.6)) text += `:${rng.chance(0.8) ? String(rng.pick([1, 2, 3, -1, -2, -3, 0])) : ''}`;
  return text;
}

function selector(rng, depth) {
  const r = rng.int(depth > 0 ? 12 : 9);
  if (r < 3) return quoted(rng, rng.pick(NAMES));
  if (r < 4) return '*';
  if (r < 6) return String(int(rng));
  if (r < 8) return slice(rng);
  return `?${blank(rng)}${logical(rng, depth - 1)}`;
}

function segment(rng, depth) {
  const descendant = rng.chance(0.25);
  const r = rng.int(4);
  if (r === 0) {
    const name = rng.pick(NAMES);
    if (isShorthand(name)) return `${descendant ? '..' : '.'}${name}`;
  }
  if (r === 1) return descendant ? '..*' : '.*';
  const n = rng.chance(0.7) ? 1 : 2 + rng.int(2);
  const list = Array.from({ length: n }, () => selector(rng, depth)).join(`${blank(rng)},${blank(rng)}`);
  return `${descendant ? '..' : ''}[${blank(rng)}${list}${blank(rng)}]`;
}

/** A query from `root` ('$' or '@') of up to `max` segments. */
export function randomQuery(rng, depth = 2, root = '$', max = 4) {
  let text = root;
  for (let n = rng.int(max + 1); n > 0; n--) text += blank(rng) + segment(rng, depth);
  return text;
}

/** A singular query: name and index segments only. */
function singular(rng) {
  let text = rng.chance(0.85) ? '@' : '$';
  for (let n = rng.int(3); n > 0; n--) {
    const name = rng.pick(NAMES);
    const r = rng.int(3);
    text += r === 0 && isShorthand(name) ? `.${name}` : r === 1 ? `[${int(rng)}]` : `[${quoted(rng, name)}]`;
  }
  return text;
}

function literal(rng) {
  const r = rng.int(4);
  if (r === 0) return String(rng.pick(NUMBERS));
  if (r === 1) return quoted(rng, rng.pick(STRINGS));
  return rng.pick(['true', 'false', 'null', '1', '0', '-1', '2.0', '1e1']);
}

function comparable(rng, depth) {
  const r = rng.int(10);
  if (r < 3) return literal(rng);
  if (r < 7) return singular(rng);
  if (r < 8) return `length(${rng.chance(0.8) ? singular(rng) : literal(rng)})`;
  if (r < 9) return `count(${randomQuery(rng, depth, rng.chance(0.8) ? '@' : '$', 2)})`;
  return `value(${randomQuery(rng, depth, '@', 2)})`;
}

/** A filter's logical expression, `depth` bounding the filters nested in its queries. */
function logical(rng, depth, level = 0) {
  const r = rng.int(level < 2 ? 10 : 6);
  if (r < 3) {
    const op = rng.pick(['==', '!=', '<', '<=', '>', '>=']);
    return `${comparable(rng, depth)}${blank(rng)}${op}${blank(rng)}${comparable(rng, depth)}`;
  }
  if (r < 5) return `${rng.chance(0.2) ? '!' : ''}${randomQuery(rng, depth, rng.chance(0.9) ? '@' : '$', 2)}`;
  if (r < 6) {
    const fn = rng.pick(['match', 'search']);
    const subject = rng.chance(0.8) ? singular(rng) : literal(rng);
    const pattern = rng.chance(0.9) ? quoted(rng, rng.pick(PATTERNS)) : singular(rng);
    return `${rng.chance(0.2) ? '!' : ''}${fn}(${subject},${blank(rng)}${pattern})`;
  }
  if (r < 7) return `!${blank(rng)}(${logical(rng, depth, level + 1)})`;
  if (r < 8) return `(${blank(rng)}${logical(rng, depth, level + 1)}${blank(rng)})`;
  const op = r < 9 ? '&&' : '||';
  return `${logical(rng, depth, level + 1)}${blank(rng)}${op}${blank(rng)}${logical(rng, depth, level + 1)}`;
}

/** A singular relative query the native filter evaluator takes: names and indices >= 0 after `@`. */
function simpleSingular(rng) {
  let text = '@';
  for (let n = rng.int(3); n > 0; n--) {
    const name = rng.pick(NAMES);
    const r = rng.int(3);
    text += r === 0 && isShorthand(name) ? `.${name}` : r === 1 ? `[${rng.int(3)}]` : `[${quoted(rng, name)}]`;
  }
  return text;
}

/** A filter expression of the natively evaluated subset: comparisons, existence tests, !, (), && and ||. */
function simpleLogical(rng, level = 0) {
  const r = rng.int(level < 3 ? 10 : 5);
  if (r < 3) {
    const op = rng.pick(['==', '!=', '<', '<=', '>', '>=']);
    const side = () => (rng.chance(0.45) ? literal(rng) : simpleSingular(rng));
    return `${side()}${blank(rng)}${op}${blank(rng)}${side()}`;
  }
  if (r < 5) return `${rng.chance(0.3) ? '!' : ''}${simpleSingular(rng)}`;
  if (r < 6) return `!${blank(rng)}(${simpleLogical(rng, level + 1)})`;
  if (r < 7) return `(${blank(rng)}${simpleLogical(rng, level + 1)}${blank(rng)})`;
  const op = r < 8 ? '&&' : '||';
  return `${simpleLogical(rng, level + 1)}${blank(rng)}${op}${blank(rng)}${simpleLogical(rng, level + 1)}`;
}

/** A filter selector of the natively evaluated subset, brackets included: `[?@.a > 1]`. */
export function randomSimpleFilter(rng) {
  return `[?${blank(rng)}${simpleLogical(rng)}]`;
}

/** A query whose last segment is a simple filter (what streams natively), after up to two child segments. */
export function randomFilterQuery(rng) {
  let text = '$';
  for (let n = rng.int(3); n > 0; n--) {
    const name = rng.pick(NAMES);
    const r = rng.int(4);
    text +=
      r === 0 && isShorthand(name)
        ? `.${name}`
        : r === 1
          ? '[*]'
          : r === 2
            ? `[${rng.int(3)}]`
            : `[${quoted(rng, name)}]`;
  }
  return `${text}[?${blank(rng)}${simpleLogical(rng)}]`;
}

/** A head the native automaton streams in RFC order, often ending in a candidate segment, or nothing. */
export function randomHead(rng) {
  let text = '$';
  for (let n = rng.int(3); n > 0; n--) text += rng.pick(['.a', "['b']", '[*]', '[*]', '[0]', '[1:]', '.*']);
  const r = rng.int(6);
  if (r === 0) return text;
  if (r === 1) return `${text}[::2]`;
  if (r === 2) return text + randomSimpleFilter(rng);
  return `${text}[*]`;
}

/** A filter the native automaton does not evaluate: a count of nodes, or a length. */
export function randomJsFilter(rng) {
  if (rng.chance(0.5)) return `[?count(${randomQuery(rng, 1, '@', 2)}) > ${rng.int(3)}]`;
  return `[?length(@${rng.pick(['', '.a', '[0]'])}) ${rng.pick(['>', '==', '<'])} ${rng.int(4)}]`;
}

/**
 * A document in which a query's heads find something: containers holding `a` and `b` often, arrays (a share
 * `arrays` of the containers, up to `length` - 1 elements) of them, `depth` levels at most; never a scalar.
 */
export function shapedDocument(rng, { depth, arrays, length }) {
  const shaped = (d) => {
    if (d === 0 || rng.chance(0.15)) return randomValue(rng, 1);
    if (rng.chance(arrays)) return Array.from({ length: rng.int(length) }, () => shaped(d - 1));
    const object = {};
    for (const name of ['a', 'b', rng.pick(NAMES)]) if (rng.chance(0.7)) object[name] = shaped(d - 1);
    return object;
  };
  for (;;) {
    const value = shaped(depth);
    if (typeof value === 'object' && value !== null) return value;
  }
}

/**
 * `value` as JSON text written the many ways JSON allows: strings with characters escaped now and then (`\u00e9`,
 * surrogate pairs, `\/`), numbers with another form of the same value (`1.0`, `1e0`, `10E-1`), blanks anywhere.
 */
export function looseJson(rng, value) {
  const ws = () => (rng.chance(0.2) ? rng.pick([' ', '\n', '\t  ', '\r\n']) : '');
  if (typeof value === 'string') {
    let out = '"';
    for (const ch of value) {
      const c = ch.codePointAt(0);
      if (ch === '"' || ch === '\\') out += `\\${ch}`;
      else if (c < 0x20 || rng.chance(0.2)) {
        for (let i = 0; i < ch.length; i++) out += `\\u${ch.charCodeAt(i).toString(16).padStart(4, '0')}`;
      } else if (ch === '/' && rng.chance(0.5)) out += '\\/';
      else out += ch;
    }
    return `${out}"`;
  }
  if (typeof value === 'number') {
    if (Number.isInteger(value) && rng.chance(0.4)) {
      return rng.pick([`${value}.0`, `${value}e0`, `${value * 10}E-1`, `${value}.00e+0`]);
    }
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) return `[${ws()}${value.map((v) => ws() + looseJson(rng, v) + ws()).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const members = Object.entries(value).map(
      ([k, v]) => `${ws()}${looseJson(rng, k)}${ws()}:${ws()}${looseJson(rng, v)}${ws()}`,
    );
    return `{${members.join(',')}${ws()}}`;
  }
  return JSON.stringify(value);
}
