// Each feature's JS gzip (shared code counts for none); the schema option, with no export: its module stubbed out.
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

/** Rows { feature, alone, added (to the features above), saved (from everything) }; `gzipped(source, stub?)`. */
export async function featureCosts(dist, gzipped) {
  const index = join(dist, 'index.js');
  const gz = (names, stub) => gzipped(`export { ${names.join(', ')} } from ${JSON.stringify(index)};`, stub);
  const exported = Object.keys(await import(index)).sort();
  const listed = Object.values(FEATURES).flat().sort();
  if (exported.join() !== listed.join()) {
    throw new Error(`sizes/features.mjs: FEATURES lists ${listed.join()}, dist/index.js exports ${exported.join()}`);
  }
  const all = await gz(listed);
  const rows = [];
  let before = [];
  let beforeGzip = 0;
  for (const [feature, names] of Object.entries(FEATURES)) {
    before = [...before, ...names];
    const upTo = await gz(before);
    const rest = listed.filter((name) => !names.includes(name));
    rows.push({ feature, alone: await gz(names), added: upTo - beforeGzip, saved: all - (await gz(rest)) });
    beforeGzip = upTo;
  }
  const noSchema = await gz(listed, join(dist, 'partial', 'schema.js'));
  rows.push({ feature: 'schema (option of partial)', alone: null, added: null, saved: all - noSchema });
  return { all, rows };
}
