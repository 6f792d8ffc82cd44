// Where the bytes of "everything" go, by feature (JS gzip); what features share counts for none of them. The schema
// option has no export of its own: everything minus the bundle with js/partial/schema.js stubbed out.
import { join } from 'node:path';

const names = (text) => text.trim().split(/\s+/);

/** The public exports of dist/index.js by feature, each in exactly one (checked). */
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

/** Rows { feature, alone, added (to the features above), saved (from everything) }; `gzipped(source, stub?)`. */
export async function featureCosts(dist, gzipped) {
  const index = join(dist, 'index.js');
  const exported = Object.keys(await import(index)).sort();
  const listed = Object.values(FEATURES).flat().sort();
  if (exported.join() !== listed.join()) {
    throw new Error(
      `bench/sizes/features.mjs: FEATURES lists ${listed.join()}, dist/index.js exports ${exported.join()}`,
    );
  }
  const all = await gzipped(exportsOf(listed, index));
  const rows = [];
  let before = [];
  let beforeGzip = 0;
  for (const [feature, names] of Object.entries(FEATURES)) {
    const rest = listed.filter((name) => !names.includes(name));
    const upTo = await gzipped(exportsOf([...before, ...names], index));
    rows.push({
      feature,
      alone: await gzipped(exportsOf(names, index)),
      added: upTo - beforeGzip,
      saved: all - (await gzipped(exportsOf(rest, index))),
    });
    before = [...before, ...names];
    beforeGzip = upTo;
  }
  const noSchema = await gzipped(exportsOf(listed, index), join(dist, 'partial', 'schema.js'));
  rows.push({ feature: 'schema (option of partial)', alone: null, added: null, saved: all - noSchema });
  return { all, rows };
}
