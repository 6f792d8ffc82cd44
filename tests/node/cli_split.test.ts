// `sluice select` and `count` with queries the library splits into a native head and a tail in JS or a window over
// each array's last elements (js/cli/split_commands.ts), a child process over dist/. Seeded random queries over
// NDJSON of random documents, against the reference evaluator (js/query/evaluate.ts): each node in its order, its
// key, and its text: the exact text of the node in the input (found by createParser with the node's normalized
// path, an explicit native query), compacted, as `select` writes any element. Then the output forms against the
// equivalent explicit indices, inputs over many reads, --limit, errors, and what stays refused.
import { describe, expect, test } from 'vitest';
import { createParser } from '../../dist/index.js';
// @ts-expect-error evaluate is @internal: stripped from the shipped .d.ts, tested all the same.
import { evaluate } from '../../dist/query/evaluate.js';
// @ts-expect-error @internal, as above
import { lowerQuery } from '../../dist/query/lower.js';
// @ts-expect-error @internal, as above
import { quoteName } from '../../dist/query/normalized_path.js';
// @ts-expect-error @internal, as above
import { parseQuery } from '../../dist/query/parser.js';
import { createRng } from '../support/random_json.mjs';
import { looseJson, randomQuery, randomHead, randomJsFilter, shapedDocument } from '../support/random_query.mjs';
import { compactJson, lines, runCli } from './cli_run.js';

const SEED = Number(process.env.SLUICE_TEST_SEED ?? 0xc11a);
/** Random queries, each over DOCUMENTS documents; BATCH of them per `select` run (its PATHs). */
const QUERIES = 120;
const DOCUMENTS = 5;
const BATCH = 6;

type Rng = ReturnType<typeof createRng>;
type Node = { value: unknown; path: string };
/** One node as `select --with-path` writes it: the query, the key (decoded) and the value's text as written. */
type Written = { path: string; key: unknown; text: string };

/** A last segment counted from the end: a negative index, or a slice with a negative part. */
function fromTheEnd(rng: Rng): string {
  if (rng.chance(0.35)) return `[-${1 + rng.int(4)}]`;
  for (;;) {
    const part = () => (rng.chance(0.3) ? '' : String(rng.int(9) - 4));
    const step = rng.chance(0.5) ? '' : `:${rng.pick(['', '1', '2', '-1', '-2', '0'])}`;
    const text = `${part()}:${part()}${step}`;
    if (text.includes('-')) return `[${text}]`;
  }
}

function randomSplitQuery(rng: Rng): string {
  const r = rng.int(3);
  if (r === 0) {
    let text = '$';
    for (let n = rng.int(3); n > 0; n--) text += rng.pick(['.a', "['b']", '[*]', '[*]', '[0]', '[0,2]', '.*']);
    // Segments after it: a tail on what the window selects, or on a wildcard's candidates before it.
    return text + fromTheEnd(rng) + (rng.chance(0.4) ? randomQuery(rng, 1, '$', 2).slice(1) : '');
  }
  if (r === 1)
    return randomHead(rng).replace(/\[\*\]$/, '') + randomJsFilter(rng) + randomQuery(rng, 1, '$', 1).slice(1);
  return randomHead(rng) + randomQuery(rng, 1, '$', 3).slice(1);
}

/** What the query lowers to, or null when it is refused or streams whole (no tail, no window). */
function splitOf(query: string): { selectors: string[]; tail: unknown; window: unknown } | null {
  try {
    const lowered = lowerQuery('test', 'PATH', query, 'rfc', 'arrival') as {
      selectors: string[];
      tail: unknown;
      window: unknown;
    };
    return lowered.tail === null && lowered.window === null ? null : lowered;
  } catch {
    return null;
  }
}

/** The exact text of the node at the normalized path `path` in `text`: createParser's, an explicit query. */
function exactText(text: string, path: string): string {
  const parser = createParser({ path, output: 'text' });
  const found = [...parser.push(text), ...parser.end()] as string[];
  // A repeated member name: JSON.parse (and so the evaluator) keeps the last.
  return found.at(-1)!;
}

/** The end of the JSON string starting at text[i] (a quote), past its closing quote. */
function stringEnd(text: string, i: number): number {
  for (let j = i + 1; ; j++) {
    if (text[j] === '\\') j++;
    else if (text[j] === '"') return j + 1;
  }
}

/** A `--with-path` line read back: its value's text as written, not reparsed. */
function written(line: string): Written {
  const { path, key } = JSON.parse(line) as { path: string; key: unknown };
  const prefix = `{"path":${JSON.stringify(path)},"key":`;
  expect(line.startsWith(prefix)).toBe(true);
  const keyEnd = line[prefix.length] === '"' ? stringEnd(line, prefix.length) : line.indexOf(',', prefix.length);
  expect(line.slice(keyEnd, keyEnd + 9)).toBe(',"value":');
  expect(line.endsWith('}')).toBe(true);
  return { path, key, text: line.slice(keyEnd + 9, -1) };
}

/** What `select --with-path` must write for `query` over the documents, and `count`. */
function expected(query: string, docs: readonly { value: unknown; text: string }[]): Written[] {
  return docs.flatMap((doc) =>
    (evaluate(parseQuery(query), doc.value) as Node[]).map((node) => {
      const last = node.path.match(/\[(\d+|'(?:[^'\\]|\\.)*')\]$/)![1]!;
      const key = last.startsWith("'") ? lastName(node.path, last) : Number(last);
      return { path: query, key, text: compactJson(exactText(doc.text, node.path)) };
    }),
  );
}

/** The member name a normalized path's last step quotes (checked by quoting it again). */
function lastName(path: string, quoted: string): string {
  const name = JSON.parse(`"${quoted.slice(1, -1).replace(/\\'/g, "'").replace(/"/g, '\\"')}"`) as string;
  expect(`$${path.slice(1, -quoted.length - 2)}[${quoteName(name)}]`).toBe(path);
  return name;
}

describe('split queries against the reference evaluator', () => {
  test(`${QUERIES} random queries with a tail or a window, select --with-path and count (seed ${SEED})`, async () => {
    const rng = createRng(SEED);
    const wrong: string[] = [];
    const kinds = { windows: 0, tails: 0, nodes: 0 };
    for (let done = 0; done < QUERIES; ) {
      const queries: string[] = [];
      let selectors = 0;
      while (queries.length < BATCH && done + queries.length < QUERIES) {
        const query = randomSplitQuery(rng);
        const split = splitOf(query);
        if (split === null || queries.includes(query) || selectors + split.selectors.length > 32) continue;
        selectors += split.selectors.length;
        queries.push(query);
        if (split.window !== null) kinds.windows++;
        else kinds.tails++;
      }
      done += queries.length;
      const docs = Array.from({ length: DOCUMENTS }, () => {
        const value = shapedDocument(rng, { depth: 4, arrays: 0.6, length: 7 });
        return { value, text: looseJson(rng, value) };
      });
      const input = `${docs.map((d) => d.text).join('\n')}\n`;
      const result = await runCli(['select', '--ndjson', '--with-path', ...queries], { input });
      if (result.code !== 0) {
        wrong.push(`${JSON.stringify(queries)}: exit ${result.code}: ${result.stderr}`);
        continue;
      }
      const got = lines(result.stdout).map(written);
      for (const query of queries) {
        const want = expected(query, docs);
        kinds.nodes += want.length;
        const mine = got.filter((w) => w.path === query);
        if (JSON.stringify(mine) !== JSON.stringify(want)) {
          wrong.push(
            `select ${JSON.stringify(query)} on ${input}: ${JSON.stringify(mine)}, not ${JSON.stringify(want)}`,
          );
        }
        const count = await runCli(['count', '--ndjson', query], { input });
        if (count.stdout !== `${want.length}\n`) {
          wrong.push(`count ${JSON.stringify(query)} on ${input}: ${count.stdout}${count.stderr}, not ${want.length}`);
        }
      }
    }
    console.log(`cli split queries: ${kinds.windows} windows, ${kinds.tails} tails, ${kinds.nodes} nodes`);
    expect(wrong.slice(0, 5)).toEqual([]);
    // Enough of each kind, or the comparison proves little.
    expect(kinds.windows).toBeGreaterThan(QUERIES / 5);
    expect(kinds.tails).toBeGreaterThan(QUERIES / 5);
    expect(kinds.nodes).toBeGreaterThan(QUERIES);
  });
});

describe('select with a window: what the equivalent explicit indices give', () => {
  const rows = [[1, 2.5, '\u00e9'], [], [{ a: 1 }], [true, null, [1e2], 4, 5]];
  const text = JSON.stringify({ rows }, null, 2).replace('2.5', '2.50').replace('"é"', '"\\u00e9"');

  test.each(['[-1]', '[-2]', '[-2:]', '[:-1]', '[1:-1]', '[::-1]', '[-1:0:-2]', '[::-2]'])(
    '$.rows[*]%s in every output form',
    async (last) => {
      const query = `$.rows[*]${last}`;
      // Each array's nodes by explicit indices, in the evaluator's order: the same elements, written by the fast path.
      const explicit = rows.flatMap((row, r) =>
        (evaluate(parseQuery(`$${last}`), row) as Node[]).map((n) => `$.rows[${r}]${n.path.slice(1)}`),
      );
      const keys = explicit.map((path) => Number(path.match(/\[(\d+)\]$/)![1]));
      const each = await Promise.all(explicit.map((path) => runCli(['select', path], { input: text })));
      const expectedLines = each.map((r) => r.stdout).join('');
      expect(expectedLines).not.toBe('');
      const got = await runCli(['select', query], { input: text });
      expect(got).toMatchObject({ code: 0, stderr: '' });
      expect(got.stdout).toBe(expectedLines);
      const array = await runCli(['select', '--array', query], { input: text });
      expect(array.stdout).toBe(`[${lines(expectedLines).join(',')}]\n`);
      const withPath = await runCli(['select', '--with-path', query], { input: text });
      expect(withPath.stdout).toBe(
        lines(expectedLines)
          .map((line, i) => `{"path":${JSON.stringify(query)},"key":${keys[i]},"value":${line}}\n`)
          .join(''),
      );
      const count = await runCli(['count', query], { input: text });
      expect(count.stdout).toBe(`${explicit.length}\n`);
    },
  );

  test.each(['$.rows[-1][*]', '$.rows[-3:][0]', '$.rows[::-1][-1]', '$.rows[-1]..*'])(
    '%s: segments after the window, each node as the explicit path gives it',
    async (query) => {
      const nodes = evaluate(parseQuery(query), { rows }) as Node[];
      expect(nodes.length).toBeGreaterThan(1);
      const each = await Promise.all(nodes.map((n) => runCli(['select', n.path], { input: text })));
      const expectedLines = each.map((r) => r.stdout).join('');
      const got = await runCli(['select', query], { input: text });
      expect(got).toMatchObject({ code: 0, stderr: '', stdout: expectedLines });
      const named = await runCli(['select', '--with-normalized-path', query], { input: text });
      expect(named.stdout).toBe(
        lines(expectedLines)
          .map((line, i) => `{"value":${line},"normalizedPath":${JSON.stringify(nodes[i]!.path)}}\n`)
          .join(''),
      );
      const count = await runCli(['count', query], { input: text });
      expect(count.stdout).toBe(`${nodes.length}\n`);
    },
  );

  test('an empty result: nothing, or [] with --array', async () => {
    expect((await runCli(['select', '$.rows[1][-1]'], { input: text })).stdout).toBe('');
    expect((await runCli(['select', '--array', '$.rows[1][-1]'], { input: text })).stdout).toBe('[]\n');
    expect((await runCli(['count', '$.rows[1][-1]'], { input: text })).stdout).toBe('0\n');
  });
});

describe('select with a tail', () => {
  const doc = {
    items: [
      { id: 1, tags: ['a', 'b', 'c'], x: 2, name: 'n1', sub: { id: 10 } },
      { id: 2, tags: ['d'], x: 0, name: 'n2' },
      { id: 3, tags: [1, 2, 3, 4], x: 5 },
    ],
  };
  const text = JSON.stringify(doc, null, 1);

  test('a tail that only filters writes the candidates themselves: the text of the native query', async () => {
    const filtered = await runCli(['select', '$.items[?length(@.tags) > 2]'], { input: text });
    const kept = doc.items.flatMap((item, i) => (item.tags.length > 2 ? [`$.items[${i}]`] : []));
    const each = await Promise.all(kept.map((path) => runCli(['select', path], { input: text })));
    expect(filtered.stdout).toBe(each.map((r) => r.stdout).join(''));
    const withPath = lines(
      (await runCli(['select', '--with-path', '$.items[?length(@.tags) > 2]'], { input: text })).stdout,
    );
    expect(withPath.map((line) => (JSON.parse(line) as { key: unknown }).key)).toEqual([0, 2]);
  });

  test('nodes inside a candidate keep their own text: numbers, escapes, key order; a repeated name its last', async () => {
    const source =
      '{"items": [{"a": {"z": 1.50, "0": "\\u00e9", "y": [1E+2, -0.0]}}, ' +
      '{"a": 1, "a": {"b": 12345678901234567890}, "__proto__": {"b": 2}}]}';
    const all = await runCli(['select', '--with-path', '$.items[*]..*'], { input: source });
    expect(all.code).toBe(0);
    const got = lines(all.stdout).map(written);
    // The evaluator's order (JS objects: integer-like names first), each node's text as written.
    const expectedNodes = expected('$.items[*]..*', [{ value: JSON.parse(source), text: source }]);
    expect(got).toEqual(expectedNodes);
    expect(got.map((w) => w.text)).toContain('1.50');
    expect(got.map((w) => w.text)).toContain('"\\u00e9"');
    expect(got.map((w) => w.text)).toContain('12345678901234567890');
    expect(got.map((w) => w.text)).toContain('[1E+2,-0.0]');
    expect(got.map((w) => w.text)).not.toContain('1');
    const array = await runCli(['select', '--array', '$.items[*].a.b'], { input: source });
    expect(array.stdout).toBe('[12345678901234567890]\n');
  });

  test('several paths: a tail, a window and a native one; --limit counts nodes', async () => {
    const paths = ['$.items[*].tags[-1]', '$.items[*].id', '$.items[0].tags[-2:]'];
    const got = await runCli(['select', '--with-path', ...paths], { input: text });
    const records = lines(got.stdout).map((line) => JSON.parse(line) as { path: string; key: unknown; value: unknown });
    for (const path of paths) {
      expect(records.filter((r) => r.path === path).map((r) => r.value)).toEqual(
        (evaluate(parseQuery(path), doc) as Node[]).map((n) => n.value),
      );
    }
    // Interleaved as createParser gives them: a window's nodes when the next array starts, or at the end.
    const parser = createParser({ paths });
    expect(records).toEqual([...parser.push(text), ...parser.end()]);
    const limited = await runCli(['select', '--limit', '3', '$.items[*].tags[::-1]'], { input: text });
    expect(limited).toMatchObject({ code: 0, stdout: '"c"\n"b"\n"a"\n' });
    const window = await runCli(['select', '--limit=1', '$.items[*].tags[-1:]', '$.items[::-1]'], { input: text });
    expect(lines(window.stdout)).toHaveLength(1);
  });
});

describe('many reads, errors, refusals', () => {
  test('a document of many 256 KiB reads: windows and tails across them', async () => {
    const rows = Array.from({ length: 40_000 }, (_, i) => ({ id: i, pad: 'x'.repeat(i % 50), tags: [i, `t${i % 9}`] }));
    const text = JSON.stringify({ rows, more: [[1, 2], [3]] });
    expect(text.length).toBeGreaterThan(8 * 256 * 1024);
    const doc = JSON.parse(text) as unknown;
    const values = (query: string) => (evaluate(parseQuery(query), doc) as Node[]).map((n) => JSON.stringify(n.value));
    const queries = [
      '$.rows[-3:]',
      '$.rows[*].tags[-1]',
      '$.rows[?count(@.*) > 2 && @.id > 39990]',
      '$.rows[*].tags[?length(@) == 2]',
    ];
    for (const query of queries) {
      const got = await runCli(['select', query], { input: text });
      expect(got.stderr).toBe('');
      expect(lines(got.stdout)).toEqual(values(query));
    }
    for (const query of ['$.rows[::-1]', '$.rows[1:-1:3]', '$.rows[*].tags[-1]', '$.more[*][-2]']) {
      const got = await runCli(['count', query], { input: text });
      expect(got.stdout).toBe(`${values(query).length}\n`);
    }
  });

  test('nodes completed before an error are written, then the error', async () => {
    const got = await runCli(['select', '$[*].a[-1]'], { input: '[{"a": [1, 2]}, {"a": [3]}, {"a": [4 5]}]' });
    expect(got.code).toBe(3);
    expect(got.stdout).toBe('2\n3\n');
    expect(got.stderr).toContain('code: EXPECTED_COMMA_OR_BRACKET');
    const window = await runCli(['select', '$.a[-1]'], { input: '{"a": [1, 2' });
    expect(window.code).toBe(4);
    expect(window.stdout).toBe('');
  });

  test.each([
    [
      ['select', '--ndjson', '--skip-invalid', '$[-1]'],
      'PATH "$[-1]" at 2: the negative index -1 is taken from a window over each array, which --skip-invalid ' +
        'would cut short; remove --skip-invalid, or select the whole arrays',
    ],
    [
      ['count', '--ndjson', '--skip-invalid', '$.a[1:-1]'],
      'PATH "$.a[1:-1]" at 4: a slice with a negative part is taken from a window',
    ],
    [['select', '$..id'], 'PATH "$..id" at 1: '],
    [['count', '$.data[-1, 0].id'], 'PATH "$.data[-1, 0].id" at 7: the negative index -1 is not supported'],
    [['select', '--ndjson', '--skip-invalid', '$[-1].id'], 'PATH "$[-1].id" at 2: the negative index -1 is taken'],
    [['select', '$.a[?@.b == $.c]'], 'a filter selector with an absolute query ($...) is not supported in a stream'],
  ])('refused %j: exit 2', async (args, message) => {
    const result = await runCli(args, { input: '[]' });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(message);
  });

  test('--skip-invalid with a tail: a bad line skipped, the others evaluated', async () => {
    const input = '{"a": ["", "bb", "c"]}\n{"a": [4,]}\n{"a": ["dd"]}\n';
    const got = await runCli(['select', '--ndjson', '--skip-invalid', '$.a[?length(@) > 1]'], { input });
    expect(got.code).toBe(7);
    expect(got.stdout).toBe('"bb"\n"dd"\n');
  });
});
