// Where the bytes of "everything" go: each feature's public exports, and what leaving them out of the bundle saves
// (JS gzip). A feature's cost is marginal: what it shares with the others (errors, validation, sources, the native
// loader) counts for none of them. The schema option has no export of its own: it is measured as the bundle of
// everything minus the bundle with js/partial/schema.js (the option's checks, JSON Schema and Standard Schema)
// replaced by a stub exporting the same names.
import { join } from 'node:path';

const names = (text) => text.trim().split(/\s+/);

/** The public exports of dist/index.js by feature. Every export belongs to exactly one (checked below). */
const FEATURES = {
  parse: names('init createParser parseJsonArray JsonArrayStream SluiceLoadError'),
  errors: names('JsonLimitError JsonPassedError JsonSchemaError JsonStringifyLimitError JsonSyntaxError'),
  encode: names('stringifyStream StreamedJsonResponse JsonArrayStringifyStream JsonLinesStringifyStream rawJson'),
  lazyParse: names('lazyParse releaseLazy'),
  openJson: names('openJson'),
  partial: names('createPartialParser partialJson isComplete'),
  sse: names(`EventStreamLimitError EventStreamParser EventStreamResponse parseEventStream SseEvent sseEvent
    stringifyEventStream`),
  model: names('readModelStream ModelStreamError'),
};

const exportsOf = (names, index) => `export { ${names.join(', ')} } from ${JSON.stringify(index)};`;

/**
 * Rows { feature, alone, added, saved }: `alone` the gzip of a bundle of that feature's exports only, `added` what
 * they add to the features above them in FEATURES, `saved` what the bundle of everything loses without them. `bundle(source, stub?)` returns minified bytes (with
 * the module at path `stub` replaced by one exporting its names as undefined); `gzip(bytes)` a length.
 */
export async function featureCosts({ dist, bundle, gzip }) {
  const index = join(dist, 'index.js');
  const exported = Object.keys(await import(index)).sort();
  const listed = Object.values(FEATURES).flat().sort();
  if (exported.join() !== listed.join()) {
    throw new Error(
      `bench/sizes/features.mjs: FEATURES lists ${listed.join()}, dist/index.js exports ${exported.join()}`,
    );
  }
  const all = gzip(await bundle(exportsOf(listed, index)));
  const rows = [];
  let before = [];
  let beforeGzip = 0;
  for (const [feature, names] of Object.entries(FEATURES)) {
    const rest = listed.filter((name) => !names.includes(name));
    const upTo = gzip(await bundle(exportsOf([...before, ...names], index)));
    rows.push({
      feature,
      alone: gzip(await bundle(exportsOf(names, index))),
      added: upTo - beforeGzip,
      saved: all - gzip(await bundle(exportsOf(rest, index))),
    });
    before = [...before, ...names];
    beforeGzip = upTo;
  }
  const noSchema = gzip(await bundle(exportsOf(listed, index), join(dist, 'partial', 'schema.js')));
  rows.push({ feature: 'schema (option of partial)', alone: null, added: null, saved: all - noSchema });
  return { all, rows };
}
