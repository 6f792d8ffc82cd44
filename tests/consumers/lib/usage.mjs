// What every consumer does with the package, as a user would: parseJsonArray (RFC 9535 queries too), partialJson,
// StreamedJsonResponse and lazyParse, each checked against JSON.parse / JSON.stringify. Takes the imported package
// (`import * as sluice from 'sluice'`) rather than importing it, so bundled pages, workers and Node scripts share it
// from ../lib/ (the runner copies lib/ beside the projects, at the same relative path as in the repository).

const DOC = {
  data: [
    { id: 1, t: 'caf\u00e9 \ud83d\ude00' },
    { id: 2, n: [1.5, null, true, { k: 'v' }] },
  ],
  total: 2,
};

async function* pieces(text, size) {
  for (let i = 0; i < text.length; i += size) yield text.slice(i, i + size);
}

async function* rows() {
  for (const row of DOC.data) {
    await null;
    yield row;
  }
}

function same(what, got, expected) {
  const a = JSON.stringify(got);
  const b = JSON.stringify(expected);
  if (a !== b) throw new Error(`${what}: got ${a}, expected ${b}`);
}

/** Runs the four APIs; resolves with a summary (JSON-serialisable) or rejects naming what differed. */
export async function exercise(sluice) {
  const text = JSON.stringify(DOC);
  const elements = [];
  for await (const element of sluice.parseJsonArray(text, { path: '$.data[*]' })) elements.push(element);
  same('parseJsonArray', elements, DOC.data);

  // RFC 9535 queries: a filter run in wasm, `..` with normalized paths, a window then a tail, match() (I-Regexp).
  const query = async (path, options) => {
    const out = [];
    for await (const node of sluice.parseJsonArray(pieces(text, 7), { path, ...options })) out.push(node);
    return out;
  };
  same('filter', await query('$.data[?@.id > 1]'), [DOC.data[1]]);
  const paths = await query('$..k', { order: 'arrival', withNormalizedPath: true });
  same('descendant', paths, [{ value: 'v', normalizedPath: "$['data'][1]['n'][3]['k']" }]);
  same('window', await query('$.data[-1].n[::-2]'), [{ k: 'v' }, null]);
  same('match', await query("$.data[?match(@.t, 'caf.*')].id"), [1]);
  let refused = null;
  try {
    sluice.parseJsonArray(text, { path: '$.data[?@.id >]' });
  } catch (error) {
    refused = error;
  }
  if (!(refused instanceof TypeError) || !/at 14: /.test(refused.message)) {
    throw new Error(`an invalid query: ${refused}, expected a TypeError at the call naming position 14`);
  }

  let snapshots = 0;
  let last;
  for await (const snapshot of sluice.partialJson(pieces(text, 5))) {
    snapshots += 1;
    last = snapshot;
  }
  same('partialJson', last, DOC);
  if (snapshots < 2) throw new Error(`partialJson: ${snapshots} snapshot(s), expected one per piece that changed it`);

  const response = new sluice.StreamedJsonResponse({ data: rows(), total: Promise.resolve(2) });
  same('StreamedJsonResponse', JSON.parse(await response.text()), DOC);
  if (!/^application\/json/.test(response.headers.get('content-type') ?? '')) {
    throw new Error(`StreamedJsonResponse: content-type ${response.headers.get('content-type')}`);
  }

  await sluice.init(); // lazyParse is synchronous: its module must be loaded first
  const lazy = sluice.lazyParse(text);
  same('lazyParse', [lazy.data[1].n[3].k, lazy.data[0].t, lazy.total], ['v', DOC.data[0].t, 2]);
  return { ok: true, elements: elements.length, snapshots, build: 'checked' };
}
