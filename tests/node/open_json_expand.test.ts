// openJson's expand against a model computed with JSON.parse: seeded random documents whose elements have members
// of every kind under the expanded names (arrays, and null, strings, numbers, objects: plain values), duplicate
// names, escaped keys, elements that are not objects, the container an array or an object at any depth; random
// chunkings, kept and transient documents; each child stream read whole, in part or not at all. After each step
// the element holds exactly the members the model says have arrived, with JSON.parse's values.
import { describe, expect, test } from 'vitest';
import { openJson } from '../../dist/index.js';
import { firstDifference } from '../support/deep_equal.mjs';
import { randomPieces, randomTextPieces, type Chunk } from '../support/feed.js';
import { createRng, randomNumber, randomString, randomWhitespace } from '../support/random_json.mjs';

const SEED = Number(process.env.SLUICE_TEST_SEED ?? 0x0e4a);
const DOCUMENTS = 400;
const encoder = new TextEncoder();
type Rng = ReturnType<typeof createRng>;

const NAMES = ['lines', 'notes', 'meta', 'id', 'x', '__proto__', '0', 'a b'];
const EXPANDABLE = ['lines', 'notes', 'meta', 'zz'];

const ws = (rng: Rng) => randomWhitespace(rng);

/** A random JSON value (text) of at most `depth` levels; never an array when `array` is false at the top. */
function value(rng: Rng, depth: number, array = true): string {
  const kind = rng.int(depth > 0 ? 6 : 4);
  if (kind === 0) return rng.pick(['null', 'true', 'false']);
  if (kind === 1) return randomNumber(rng);
  if (kind <= 3) return randomString(rng, rng.int(3));
  if (kind === 4 && array) return arrayText(rng, depth - 1);
  const members = Array.from(
    { length: rng.int(4) },
    () => `${randomString(rng, 1)}${ws(rng)}:${ws(rng)}${value(rng, depth - 1)}`,
  );
  return `{${ws(rng)}${members.join(`${ws(rng)},${ws(rng)}`)}${ws(rng)}}`;
}

function arrayText(rng: Rng, depth: number): string {
  const items = Array.from({ length: rng.int(6) }, () => value(rng, depth));
  return `[${ws(rng)}${items.join(`${ws(rng)},${ws(rng)}`)}${ws(rng)}]`;
}

/** A member name as JSON text: sometimes with escapes that decode to the same name. */
function keyText(rng: Rng, name: string): string {
  if (name.length > 0 && rng.chance(0.2)) {
    const i = rng.int(name.length);
    const escaped = '\\u' + name.charCodeAt(i).toString(16).padStart(4, '0');
    return `"${name.slice(0, i)}${escaped}${name.slice(i + 1)}"`;
  }
  return JSON.stringify(name);
}

interface Member {
  readonly name: string;
  readonly text: string;
}

interface Element {
  readonly text: string;
  /** Null for an element that is not an object. */
  readonly members: Member[] | null;
}

function randomElement(rng: Rng, expand: readonly string[]): Element {
  if (rng.chance(0.15)) return { text: value(rng, 2), members: null };
  const members: Member[] = [];
  for (let n = rng.int(8); n > 0; n--) {
    const name = rng.chance(0.5) ? rng.pick(expand) : rng.pick(NAMES);
    const expanded = expand.includes(name);
    const text = expanded && rng.chance(0.6) ? arrayText(rng, 2) : value(rng, 2, !expanded || rng.chance(0.3));
    members.push({ name, text });
  }
  const body = members.map((m) => `${ws(rng)}${keyText(rng, m.name)}${ws(rng)}:${ws(rng)}${m.text}${ws(rng)}`);
  return { text: `{${body.join(',')}${body.length === 0 ? ws(rng) : ''}}`, members };
}

/** What the element holds once everything arrived, and when each member arrives. */
interface Model {
  /** Non-objects: JSON.parse of the text. */
  readonly whole: unknown;
  /** The members, in arrival order: a stream (its children) or a plain value. */
  readonly steps: { name: string; stream: unknown[] | null; value: unknown }[];
}

function model(element: Element, expand: readonly string[]): Model {
  if (element.members === null) return { whole: JSON.parse(element.text), steps: [] };
  const steps: Model['steps'] = [];
  const seen = new Set<string>();
  for (const m of element.members) {
    const parsed = JSON.parse(m.text) as unknown;
    if (expand.includes(m.name)) {
      if (seen.has(m.name)) continue; // a later member of an expanded name: skipped
      seen.add(m.name);
      if (Array.isArray(parsed)) {
        steps.push({ name: m.name, stream: parsed, value: undefined });
        continue;
      }
    }
    steps.push({ name: m.name, stream: null, value: parsed });
  }
  return { whole: undefined, steps };
}

/** The plain object the element should be after the first `upto` steps (streams as `marker`). */
function expected(m: Model, upto: number, marker: (name: string) => unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const step of m.steps.slice(0, upto)) {
    const v = step.stream !== null ? marker(step.name) : step.value;
    Object.defineProperty(out, step.name, { value: v, writable: true, enumerable: true, configurable: true });
  }
  return out;
}

function chunksOf(text: string, rng: Rng): Chunk[] {
  const maxPiece = rng.pick([1, 4, 32, 500, 100000]);
  return rng.chance(0.5)
    ? randomPieces(encoder.encode(text), rng, maxPiece)
    : randomTextPieces(text, rng, maxPiece, 0.3);
}

async function* source(chunks: readonly Chunk[]): AsyncGenerator<Chunk> {
  for (const c of chunks) yield c;
}

describe('expand against a JSON.parse model', () => {
  test(`random elements, expanded names of every type, random reads (seed ${SEED})`, async () => {
    const rng = createRng(SEED);
    const seen = { streams: 0, plainExpanded: 0, skippedDuplicates: 0, wholeElements: 0 };
    for (let d = 0; d < DOCUMENTS; d++) {
      const expand = EXPANDABLE.filter(() => rng.chance(0.5));
      if (expand.length === 0) expand.push('lines');
      const elements = Array.from({ length: rng.int(6) }, () => randomElement(rng, expand));
      const inObject = rng.chance(0.3);
      const container = inObject
        ? `{${elements.map((e, i) => `${ws(rng)}"k${i}"${ws(rng)}:${ws(rng)}${e.text}`).join(',')}}`
        : `[${elements.map((e) => ws(rng) + e.text + ws(rng)).join(',')}]`;
      const nested = rng.chance(0.7);
      const text = nested
        ? `{"pre":${value(rng, 2)},"data":{"items":${container}},"post":${value(rng, 2)}}`
        : container;
      const path = (nested ? '$.data.items' : '$') + (inObject ? '.*' : '[*]');
      const transient = rng.chance(0.5);
      const doc = openJson(source(chunksOf(text, rng)), { transient });
      const fail = (what: string) => {
        throw new Error(`document ${d} ${JSON.stringify(text)} expand ${JSON.stringify(expand)} ${path}: ${what}`);
      };
      const models = elements.map((e) => model(e, expand));
      const got: unknown[] = [];
      const breakAt = rng.chance(0.2) ? rng.int(elements.length + 1) : -1;
      let i = 0;
      for await (const item of doc.iterate<Record<string, unknown>>(path, { expand })) {
        if (i === breakAt) break;
        const m = models[i]!;
        got.push(item);
        if (elements[i]!.members === null) {
          seen.wholeElements++;
          const diff = firstDifference(item, m.whole);
          if (diff !== null) fail(`element ${i} (whole): ${diff}`);
          i++;
          continue;
        }
        const marker = (name: string) => item[name];
        const streamSteps = m.steps.map((s, k) => (s.stream !== null ? k : -1)).filter((k) => k >= 0);
        // Yielded when the first stream starts (with it), or whole.
        let arrived = streamSteps.length === 0 ? m.steps.length : streamSteps[0]! + 1;
        const check = (when: string) => {
          const diff = firstDifference(item, expected(m, arrived, marker));
          if (diff !== null) fail(`element ${i} ${when}: ${diff}`);
        };
        check('when yielded');
        seen.plainExpanded += m.steps.filter((s) => s.stream === null && expand.includes(s.name)).length;
        seen.skippedDuplicates += elements[i]!.members!.length - m.steps.length;
        let stopped = false;
        for (let s = 0; s < streamSteps.length && !stopped; s++) {
          const step = m.steps[streamSteps[s]!]!;
          const stream = item[step.name] as AsyncIterable<unknown>;
          seen.streams++;
          const action = rng.int(4);
          if (action === 0) {
            stopped = true; // not read: the rest of the element is skipped when the loop moves on
            continue;
          }
          const stop = action === 1 ? rng.int(step.stream!.length + 1) : Infinity;
          const children: unknown[] = [];
          for await (const child of stream) {
            if (children.length === stop) break;
            children.push(child);
          }
          const diff = firstDifference(children, step.stream!.slice(0, Math.min(stop, step.stream!.length)));
          if (diff !== null) fail(`element ${i} stream ${step.name}: ${diff}`);
          arrived = s + 1 < streamSteps.length ? streamSteps[s + 1]! + 1 : m.steps.length;
          check(`after stream ${step.name}`);
        }
        i++;
      }
      // Once the loop moved on, every element taken holds all its members.
      for (let k = 0; k < got.length; k++) {
        if (elements[k]!.members === null) continue;
        const item = got[k] as Record<string, unknown>;
        const diff = firstDifference(
          item,
          expected(models[k]!, models[k]!.steps.length, (name) => item[name]),
        );
        if (diff !== null) fail(`element ${k} after the loop: ${diff}`);
      }
      if (breakAt < 0 && i !== elements.length) fail(`${i} elements, expected ${elements.length}`);
      if (nested) {
        const post = await doc.get('$.post');
        const diff = firstDifference(post, (JSON.parse(text) as { post: unknown }).post);
        if (diff !== null) fail(`get($.post) after the loop: ${diff}`);
      }
      if (!transient && nested && elements.length > 0) {
        const k = rng.int(elements.length);
        const at = inObject ? `$.data.items.k${k}` : `$.data.items[${k}]`;
        const diff = firstDifference(await doc.get(at), JSON.parse(elements[k]!.text));
        if (diff !== null) fail(`get(${at}) after the loop: ${diff}`);
      }
    }
    // Every kind of member was met, many times.
    expect(Math.min(seen.streams, seen.plainExpanded, seen.skippedDuplicates, seen.wholeElements)).toBeGreaterThan(40);
  }, 60_000);

  test('a non-array member under an expanded name loses nothing after it (issue 18, item 1)', async () => {
    for (const lines of ['null', '"none"', '0', '{"a":1,"b":[2]}', 'true']) {
      const text = `{"orders":[{"id":2,"lines":${lines},"total":0,"notes":[1,2],"end":3},{"id":4,"lines":[5],"total":9}]}`;
      const doc = openJson(text);
      const got: unknown[] = [];
      for await (const order of doc.iterate<Record<string, unknown>>('$.orders[*]', { expand: ['lines', 'notes'] })) {
        // Each stream read in turn: the members after it arrive as it ends.
        const streamed: Record<string, unknown[]> = {};
        for (let k = 0; k < Object.keys(order).length; k++) {
          const name = Object.keys(order)[k]!;
          const member = order[name];
          if (typeof member !== 'object' || member === null || !(Symbol.asyncIterator in member)) continue;
          streamed[name] = [];
          for await (const x of member as AsyncIterable<unknown>) streamed[name].push(x);
        }
        got.push(Object.fromEntries(Object.keys(order).map((name) => [name, streamed[name] ?? order[name]])));
      }
      const expectedOrders = (JSON.parse(text) as { orders: Record<string, unknown>[] }).orders;
      expect(got).toEqual(expectedOrders);
    }
  });
});
