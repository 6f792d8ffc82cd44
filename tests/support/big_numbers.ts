// Seeded documents for options.integers, each with the value every mode must give, computed from the model the
// text was written from (never by parsing the text): integer tokens past 2^53 - 1 of every length and sign, the
// boundaries around 2^53, decimals and exponents with long digit runs, -0, and digit runs inside strings and keys
// (plain and \u-escaped) that must stay strings. Containers nest; whitespace is random; keys may repeat.
import { type createRng, randomWhitespace } from './random_json.mjs';

export type Rng = ReturnType<typeof createRng>;
export type Mode = 'number' | 'bigint' | 'string';

type Node =
  | { kind: 'number'; token: string }
  | { kind: 'string'; value: string }
  | { kind: 'literal'; token: 'true' | 'false' | 'null' }
  | { kind: 'array'; items: Node[] }
  | { kind: 'object'; members: [string, Node][] };

const BOUNDARIES = [
  '9007199254740991',
  '9007199254740992',
  '9007199254740993',
  '-9007199254740991',
  '-9007199254740992',
  '-9007199254740993',
  '18446744073709551615',
  '-9223372036854775808',
  '1000000000000000',
  '9999999999999999',
  '0',
  '-0',
  '-0.0',
  '0e0',
  '1E+2',
  '1e400',
  '-1e-400',
  '9007199254740993.0',
  '9007199254740993e0',
  '12345678901234567890.5',
  '0.12345678901234567890123',
  '1.2345678901234567890e-5',
];

function digits(rng: Rng, count: number): string {
  let out = '';
  for (let i = 0; i < count; i++) out += String.fromCharCode(48 + rng.int(10));
  return out;
}

export function randomToken(rng: Rng): string {
  switch (rng.int(5)) {
    case 0:
      return rng.pick(BOUNDARIES);
    case 1:
    case 2: {
      // An integer token of 14 to 45 digits: below, around and past 2^53.
      return (rng.chance(0.4) ? '-' : '') + String(rng.range(1, 9)) + digits(rng, rng.range(13, 44));
    }
    case 3:
      return (rng.chance(0.3) ? '-' : '') + String(rng.int(1000));
    default: {
      let out = (rng.chance(0.3) ? '-' : '') + String(rng.range(1, 9)) + digits(rng, rng.int(20));
      if (rng.chance(0.6)) out += '.' + digits(rng, rng.range(1, 25));
      if (rng.chance(0.5)) out += rng.pick(['e', 'E']) + rng.pick(['', '+', '-']) + digits(rng, rng.range(1, 3));
      return out;
    }
  }
}

function randomText(rng: Rng): string {
  const pieces = ['', 'a', 'é', '"', '\\', '\n', '12345678901234567890', '9007199254740993', '-1.5e300', '\u{1f600}'];
  let out = '';
  for (let n = rng.int(4); n > 0; n--) out += rng.pick(pieces);
  return out;
}

function randomNode(rng: Rng, depth: number, keys: boolean): Node {
  if (depth > 0 && rng.chance(0.4)) {
    const count = rng.int(6);
    if (rng.chance(0.5))
      return { kind: 'array', items: Array.from({ length: count }, () => randomNode(rng, depth - 1, keys)) };
    const names = keys ? ['id', 'n', '__proto__', '12345678901234567890', 'x'] : ['id', 'n', 'x', 'y', 'z'];
    const members: [string, Node][] = [];
    for (let i = 0; i < count; i++) {
      const name = rng.pick(names);
      // Without repeated keys (partial snapshots read member by member), each name once.
      if (!keys && members.some(([k]) => k === name)) continue;
      members.push([name, randomNode(rng, depth - 1, keys)]);
    }
    return { kind: 'object', members };
  }
  switch (rng.int(8)) {
    case 0:
      return { kind: 'literal', token: rng.pick(['true', 'false', 'null'] as const) };
    case 1:
      return { kind: 'string', value: randomText(rng) };
    default:
      return { kind: 'number', token: randomToken(rng) };
  }
}

/** A string's JSON text: some characters (digits too) written as \u escapes. */
function stringText(rng: Rng, value: string): string {
  let out = '"';
  for (const c of value) {
    const code = c.codePointAt(0)!;
    if (c === '"' || c === '\\' || code < 0x20 || (code < 0x10000 && rng.chance(0.1))) {
      out += `\\u${code.toString(16).padStart(4, '0')}`;
    } else {
      out += c;
    }
  }
  return out + '"';
}

function write(rng: Rng, node: Node): string {
  const ws = () => randomWhitespace(rng);
  switch (node.kind) {
    case 'number':
    case 'literal':
      return node.token;
    case 'string':
      return stringText(rng, node.value);
    case 'array':
      return `[${ws()}${node.items.map((item) => write(rng, item) + ws()).join(`,${ws()}`)}]`;
    default:
      return `{${ws()}${node.members
        .map(([key, value]) => `${stringText(rng, key)}${ws()}:${ws()}${write(rng, value)}${ws()}`)
        .join(`,${ws()}`)}}`;
  }
}

/** The value of a number token under `mode`: what the option's documentation says, from the token alone. */
export function tokenValue(token: string, mode: Mode): number | bigint | string {
  const n = Number(token);
  if (mode === 'number' || !/^-?[0-9]+$/.test(token) || Number.isSafeInteger(n)) return n;
  return mode === 'bigint' ? BigInt(token) : token;
}

function modelValue(node: Node, mode: Mode): unknown {
  switch (node.kind) {
    case 'number':
      return tokenValue(node.token, mode);
    case 'string':
      return node.value;
    case 'literal':
      return JSON.parse(node.token);
    case 'array':
      return node.items.map((item) => modelValue(item, mode));
    default: {
      const out: Record<string, unknown> = {};
      for (const [key, value] of node.members) {
        // As JSON.parse: an own data property (`__proto__` too), a repeated key keeping its first place.
        Object.defineProperty(out, key, {
          value: modelValue(value, mode),
          writable: true,
          enumerable: true,
          configurable: true,
        });
      }
      return out;
    }
  }
}

function tokens(node: Node, out: string[]): string[] {
  if (node.kind === 'number') out.push(node.token);
  else if (node.kind === 'array') for (const item of node.items) tokens(item, out);
  else if (node.kind === 'object') for (const [, value] of node.members) tokens(value, out);
  return out;
}

export interface BigDocument {
  /** An array of `count` elements. */
  text: string;
  /** Its value under each mode. */
  value: (mode: Mode) => unknown[];
  /** Every number token, in order. */
  tokens: string[];
}

/** A random array document; `keys: false` gives each object's names once (for the partial parser's snapshots). */
export function randomBigDocument(rng: Rng, { depth = 3, keys = true } = {}): BigDocument {
  const items: Node[] = Array.from({ length: rng.range(1, 6) }, () => randomNode(rng, depth, keys));
  const root: Node = { kind: 'array', items };
  return {
    text: randomWhitespace(rng) + write(rng, root) + randomWhitespace(rng),
    value: (mode) => modelValue(root, mode) as unknown[],
    tokens: tokens(root, []),
  };
}
