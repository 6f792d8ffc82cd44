// RFC 9535 queries lowered to native selectors (js/query/lower.ts): unions expanded, the MAX_SELECTORS budget,
// the refusals (invalid, not streamed yet, RFC order) and their messages, the order rule, and what the parsers
// deliver for an expanded query: the user's text as its path, each node once in arrival order.
import { describe, expect, test } from 'vitest';
import { createParser, JsonArrayStream, openJson, parseJsonArray } from '../../dist/index.js';
// @ts-expect-error lowerQuery is @internal: stripped from the shipped .d.ts, tested all the same.
import { lowerQuery } from '../../dist/query/lower.js';

const lower = (text: string, order: 'rfc' | 'arrival' = 'arrival') =>
  lowerQuery('createParser()', 'options.path', text, order, "order: 'arrival'") as {
    selectors: string[];
    mayRepeat: boolean;
    descendantSteps: number;
    tail: unknown;
    window: unknown;
  };

/** What `run` threw. */
function thrown(run: () => unknown): Error {
  try {
    run();
  } catch (error) {
    return error as Error;
  }
  throw new Error('nothing was thrown');
}

function run(options: object, text: string): unknown[] {
  const parser = createParser(options as never);
  return [...parser.push(text), ...parser.end()];
}

describe('lowering', () => {
  test.each([
    ['$', ['$']],
    ['$.a', ['$["a"]']],
    ["$['a\\'b'][*].*", ['$["a\'b"][*][*]']],
    ['$[0, 2]', ['$[0]', '$[2]']],
    ["$['a','b'][0,2]", ['$["a"][0]', '$["a"][2]', '$["b"][0]', '$["b"][2]']],
    ['$..a', ['$..["a"]']],
    ['$..*', ['$..[*]']],
    ['$..[0]..["x"]', ['$..[0]..["x"]']],
    ['$[1:]', ['$[1::1]']],
    ['$[:3]', ['$[0:3:1]']],
    ['$[::2]', ['$[0::2]']],
    ['$[2:7:0]', ['$[2:7:0]']],
    ['$..[1:5:2, "k"]', ['$..[1:5:2]', '$..["k"]']],
    ['$["\\u00e9\\n"]', ['$["é\\n"]']],
  ])('%s', (text, selectors) => {
    expect(lower(text).selectors).toEqual(selectors);
  });

  test('at most MAX_SELECTORS (32) native selectors: one query, and all paths together', () => {
    expect(lower('$[0,1,2,3][0,1,2,3,4,5,6,7]').selectors.length).toBe(32);
    expect(thrown(() => lower('$[0,1,2][0,1,2][0,1,2,3]'))).toEqual(
      new TypeError(
        'createParser(): options.path "$[0,1,2][0,1,2][0,1,2,3]" expands to 36 native selectors (the product of ' +
          "its unions' sizes); at most 32 are supported",
      ),
    );
    const paths = ['$[0,1,2,3][0,1,2,3]', '$[0,1,2,3][0,1,2,3]', '$.a'];
    expect(thrown(() => parseJsonArray('[]', { paths, order: 'arrival' }))).toEqual(
      new TypeError(
        'parseJsonArray(): options.paths expand to 33 native selectors (a union counts one per combination); ' +
          'at most 32 are supported',
      ),
    );
  });
});

describe('the native budget of descendant steps (64 in all)', () => {
  test('counts each segment of each expanded selector that has a ..', () => {
    const at64 = '$..a.b.c.d.e.f.g[0,1,2,3,4,5,6,7]';
    expect(run({ path: at64, order: 'arrival' }, '{"a":{"b":{"c":{"d":{"e":{"f":{"g":[1,2]}}}}}}}')).toEqual([1, 2]);
    expect(lower(at64).descendantSteps).toBe(64);
    expect(lower('$.a[0,1]').descendantSteps).toBe(0);
    const at72 = '$..a.b.c.d.e.f.g.h[0,1,2,3,4,5,6,7]';
    expect(thrown(() => createParser({ path: at72, order: 'arrival' }))).toEqual(
      new TypeError(
        `createParser(): options.path "${at72}" needs 72 steps of native selectors with a descendant segment ` +
          '(each segment a step, a union counting one selector per combination); at most 64 are supported',
      ),
    );
    expect(thrown(() => createParser({ paths: [at64, '$..x'], order: 'arrival' })).message).toMatch(
      /^createParser\(\): options\.paths needs 65 steps of native selectors/,
    );
  });
});

describe('refusals', () => {
  test.each([
    ['$..[?@.a]', 4, 'a filter selector'],
    ['$.a[1, ?length(@) > 2]', 7, 'a filter selector'],
    ['$..a[?@.b]', 5, 'a filter selector'],
    ['$[-1, 0].a', 2, 'the negative index -1'],
    ['$.data[0,-1][0]', 9, 'the negative index -1'],
    ['$..[ -3:]', 5, 'a slice with a negative start'],
    ['$..x[1:-1]', 5, 'a slice with a negative end'],
    ['$.a[::-1, 0].b', 4, 'a slice with a negative step'],
  ])('%s is valid but not streamed yet', (text, at, what) => {
    for (const order of ['rfc', 'arrival'] as const) {
      expect(thrown(() => lower(text, order))).toEqual(
        new TypeError(
          `createParser(): options.path ${JSON.stringify(text)} at ${at}: ${what} is not supported in a stream ` +
            'yet (a stream takes names, *, indices >= 0, slices without negative parts, .. and unions, and in ' +
            'the last segment of a query without .. filters comparing or testing @ queries of names and indices ' +
            '>= 0 with literals; any other query needs a first part of those without .. and ending in *, such a ' +
            'slice or a filter, the rest being evaluated on each node it selects, or a negative index or slice ' +
            'after a first part without .., the rest being evaluated on each element it selects)',
        ),
      );
    }
  });

  test.each(['$[-1].a', '$.data[-1][0]', '$.a[::-1].b', '$.a[-2:]..c'])(
    '%s streams: a window over each array, then a tail on each element it selects',
    (text) => {
      const lowered = lower(text);
      expect(lowered.window).not.toBeNull();
      expect(lowered.tail).not.toBeNull();
    },
  );

  test.each(['', '$.', '$[', '$[01]', "$['\ud800']", '$..', '$[?@.* == 1]', '$[9007199254740992]'])(
    "%j is no query: the parser's positioned message, naming the option",
    (text) => {
      const message = thrown(() => createParser({ paths: ['$', text] })).message;
      expect(message).toMatch(
        new RegExp(`^createParser\\(\\): options\\.paths\\[1\\] ${regexpText(JSON.stringify(text))} at \\d+: `),
      );
      expect(message).not.toContain('not supported in a stream');
    },
  );

  test('the other APIs name themselves and the option', () => {
    expect(thrown(() => new JsonArrayStream({ path: '$[' })).message).toMatch(
      /^new JsonArrayStream\(\): options\.path "\$\[" at 2: expected a selector/,
    );
    expect(thrown(() => parseJsonArray('[]', { path: '$[-2,0].a' })).message).toMatch(
      /^parseJsonArray\(\): options\.path "\$\[-2,0\]\.a" at 2: the negative index -2 is not supported in a stream yet/,
    );
    expect(thrown(() => createParser({ order: 'document' } as never))).toEqual(
      new TypeError(`createParser(): options.order must be 'rfc' or 'arrival', got "document"`),
    );
  });
});

function regexpText(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

describe('the order rule', () => {
  // Streams in RFC order: child segments only, unions of indices in strictly increasing order.
  test.each(['$', '$.a', '$[*].b[3]', '$[0, 2, 5]', '$[0,2][1,3].x', '$[1:3]', '$[*][::2]'])(
    '%s: RFC order',
    (text) => {
      expect(lower(text, 'rfc').selectors.length).toBeGreaterThan(0);
    },
  );

  test.each([
    ['$..a', 1, 'descendant'],
    ['$.x..a', 3, 'descendant'],
    // One union out of document order is held (query_union_order.test.ts); a second is refused.
    ["$['a', 'b'][1, 0]", 11, 'union'],
    ['$[1, 0][*, 0]', 7, 'union'],
    ['$[0, 0].a[2, 1]', 9, 'union'],
    ['$[*, 0]..a', 7, 'descendant'],
  ])('%s needs arrival order', (text, at, kind) => {
    const error = thrown(() => lower(text, 'rfc'));
    expect(error).toBeInstanceOf(TypeError);
    expect(error.message).toMatch(
      new RegExp(`^createParser\\(\\): options\\.path ${regexpText(JSON.stringify(text))} at ${at}: RFC 9535 order `),
    );
    expect(error.message).toContain(kind === 'descendant' ? 'end of the document' : 'whole container');
    expect(error.message).toContain("with order: 'arrival' each match comes once, as its last byte arrives");
    expect(lower(text, 'arrival').selectors.length).toBeGreaterThan(0);
  });

  test.each([
    ['$[*, 0]', true],
    ['$[0, 0]', true],
    ["$['a', 'a']", true],
    ['$[1, 0:3]', true],
    ['$[1:3, 2:4]', true],
    ['$[0::2, 3]', false],
    ['$[0::2, 4]', true],
    ["$['a', 'b']", false],
    ["$['a', 0]", false],
    ['$[0, 3:5]', false],
    ['$[0:2, 2:4]', false],
    ['$[1:1, 1]', false],
    ['$[0::0, 0]', false],
    ["$..['a', 'b']", false],
    ["$..['a', 'b'].c", true],
    ["$['a', 'b']..c", false],
    ["$.x..y['a', 'b']", false],
    ['$..a..b', false],
  ])('%s: two selectors may select one node: %s', (text, repeats) => {
    expect(lower(text).mayRepeat).toBe(repeats);
  });
});

describe('split queries: a native head, a tail in JS', () => {
  const split = (text: string, order: 'rfc' | 'arrival') =>
    lowerQuery('createParser()', 'options.path', text, order, "order: 'arrival'") as {
      selectors: string[];
      tail: { filter: unknown; segments: unknown[]; at: number } | null;
    };

  test.each([
    // [query, the head's native selectors, a filter on the candidate, tail segments, where the tail starts]
    ['$.items[?length(@.tags) > 2]', ['$["items"][*]'], true, 0, 8],
    ['$.a[?@.x > 1].name', ['$["a"][?@."x";L1>]'], false, 1, 13],
    ['$.items[*]..id', ['$["items"][*]'], false, 1, 10],
    ["$.items[*]['a','b'][1,0]", ['$["items"][*]'], false, 2, 10],
    ['$.items[*].tags[-1].a', ['$["items"][*]'], false, 3, 10],
    ['$.rows[0:10][::-1][0]', ['$["rows"][0:10:1]'], false, 2, 12],
    ['$[0,2][*].a[?@.b].c', ['$[0][*]["a"][?@."b";E]', '$[2][*]["a"][?@."b";E]'], false, 1, 17],
    ['$[0,2][*].a[?@.b][-1]', ['$[0][*]["a"][?@."b";E]', '$[2][*]["a"][?@."b";E]'], false, 1, 17],
    ['$[*][?@[-1] == 1]', ['$[*][*]'], true, 0, 5],
  ])('%s', (text, selectors, filter, segments, at) => {
    // In arrival order the native automaton takes `..` and unions whole: those queries have no tail there.
    const orders = /\.\.|','/.test(text) ? (['rfc'] as const) : (['rfc', 'arrival'] as const);
    for (const order of orders) {
      const { selectors: got, tail } = split(text, order);
      expect(got).toEqual(selectors);
      expect(tail).not.toBeNull();
      expect(tail!.filter !== null).toBe(filter);
      expect(tail!.segments.length).toBe(segments);
      expect(tail!.at).toBe(at);
    }
  });

  test.each([
    ['$[-1]', ['$[*]']],
    ['$.data[-1]', ['$["data"][*]']],
    ['$.rows[-3:]', ['$["rows"][*]']],
    ['$[*].tags[1:-1]', ['$[*]["tags"][*]']],
    ['$[0,2][::-1]', ['$[0][*]', '$[2][*]']],
  ])('%s: a last segment from the end, a window over the elements of %j', (text, selectors) => {
    for (const order of ['rfc', 'arrival'] as const) {
      const got = lowerQuery('createParser()', 'options.path', text, order, "order: 'arrival'") as {
        selectors: string[];
        tail: unknown;
        window: { selector: { kind: string } } | null;
      };
      expect(got.selectors).toEqual(selectors);
      expect(got.tail).toBeNull();
      expect(got.window).not.toBeNull();
    }
  });

  test('a query that streams whole has no tail, whatever the order', () => {
    expect(split('$.a[?@.x > 1]', 'rfc').tail).toBeNull();
    expect(split('$.items[*]..id', 'arrival').tail).toBeNull();
    expect(split('$.items[*]..id', 'arrival').selectors).toEqual(['$["items"][*]..["id"]']);
  });

  test("a tail's filter reading $ is refused: it would need the whole document", () => {
    for (const text of ['$.a[?@.x == $.y]', '$.a[*][?count(@[?$.k]) > 0]', '$[*]..[?match(@, $.re)]']) {
      const error = thrown(() => split(text, 'rfc'));
      expect(error).toBeInstanceOf(TypeError);
      expect(error.message).toMatch(
        /at \d+: a filter selector with an absolute query \(\$\.\.\.\) is not supported in a stream: it reads the whole document/,
      );
    }
  });
});

describe('what the parsers deliver', () => {
  const doc = '{"a":[1,2,3],"b":[4,5,6]}';

  test('an expanded query reports the user text as its path, and RFC order where it streams', () => {
    expect(run({ path: '$.a[0, 2]', withPath: true }, doc)).toEqual([
      { path: '$.a[0, 2]', key: 0, value: 1 },
      { path: '$.a[0, 2]', key: 2, value: 3 },
    ]);
    expect(run({ paths: ['$.b[2]', "$['a','b'][0,1]"], order: 'arrival' }, doc)).toEqual([
      { path: "$['a','b'][0,1]", key: 0, value: 1 },
      { path: "$['a','b'][0,1]", key: 1, value: 2 },
      { path: "$['a','b'][0,1]", key: 0, value: 4 },
      { path: "$['a','b'][0,1]", key: 1, value: 5 },
      { path: '$.b[2]', key: 2, value: 6 },
    ]);
  });

  test('arrival order: a node that several selectors of one query select comes once', () => {
    for (const output of ['value', 'text', 'bytes'] as const) {
      const values = run({ path: '$.a[*, 0, 2]', order: 'arrival', output }, doc);
      expect(values.map((v) => (v instanceof Uint8Array ? new TextDecoder().decode(v) : String(v)))).toEqual([
        '1',
        '2',
        '3',
      ]);
    }
    const revived = run({ path: '$[*][*, 1]', order: 'arrival', reviver: (_k: string, v: unknown) => v }, doc);
    expect(revived).toEqual([1, 2, 3, 4, 5, 6]);
    // Fed byte by byte: a node's selectors are still reported together.
    const parser = createParser({ path: '$[*][*, 1]', order: 'arrival', withOffset: true });
    const out: unknown[] = [];
    for (const ch of doc) out.push(...parser.push(ch));
    out.push(...parser.end());
    expect(out.map((e) => (e as { offset: number }).offset)).toEqual([...'123456'].map((d) => doc.indexOf(d)));
  });

  test('the descendant segment and slices: each node once, a node inside another before it', () => {
    const nested = '{"a":{"a":[1,{"a":2}]},"b":[{"a":3}]}';
    expect(run({ path: '$..a', order: 'arrival' }, nested)).toEqual([2, [1, { a: 2 }], { a: [1, { a: 2 }] }, 3]);
    // Two descendant segments reach $.a.a[1].a along two paths: the RFC lists it twice, the stream once.
    expect(run({ path: '$..a..a', order: 'arrival' }, nested)).toEqual([2, [1, { a: 2 }]]);
    expect(run({ path: '$[1:6:2]' }, '[0,1,2,3,4,5,6,7]')).toEqual([1, 3, 5]);
    expect(run({ path: '$..[0:1]', order: 'arrival', output: 'text' }, '[[5,[6]],[7]]')).toEqual([
      '5',
      '6',
      '[5,[6]]',
      '7',
    ]);
    expect(run({ path: '$..[*, 0]', order: 'arrival', output: 'text' }, '[[5,[6]],[7]]')).toEqual([
      '5',
      '6',
      '[6]',
      '[5,[6]]',
      '7',
      '[7]',
    ]);
  });

  test('several paths that select one node each report it, as before', () => {
    expect(run({ paths: ['$.a[0]', '$.a[*]'], order: 'arrival' }, doc)).toEqual([
      { path: '$.a[0]', key: 0, value: 1 },
      { path: '$.a[*]', key: 0, value: 1 },
      { path: '$.a[*]', key: 1, value: 2 },
      { path: '$.a[*]', key: 2, value: 3 },
    ]);
  });
});

describe('openJson takes singular queries in get()', () => {
  test.each([
    ['$..a', 1, 'a descendant segment'],
    ["$['a','b']", 1, 'a union'],
    ['$[1:]', 2, 'a slice selector'],
    ['$[?@]', 2, 'a filter selector'],
  ])('%s', async (path, at, what) => {
    const doc = openJson('{"a":[1]}');
    await expect(doc.get(path)).rejects.toEqual(
      new TypeError(
        `doc.get(): path ${JSON.stringify(path)} at ${at}: openJson takes singular queries ($, .name, ['name'], ` +
          `["name"], [N]), not ${what}; use doc.iterate() for several values`,
      ),
    );
    expect(await doc.get('$.a[-1]')).toBe(1);
    await doc.close();
  });

  test("an invalid query is the parser's message; singular ones still read", async () => {
    const doc = openJson('{"a":[1,{"b c":2}]}');
    await expect(doc.get('$.a[')).rejects.toThrow(/^doc\.get\(\): path "\$\.a\[" at 4: expected a selector/);
    expect(await doc.get("$.a[1]['b c']")).toBe(2);
    await doc.close();
  });
});
