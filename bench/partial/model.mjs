// bench:partial's model-output case (issue 32), in one fresh process: a 20 kB tool call's arguments in 4,000 deltas,
// read after every delta by each reader of competitors/model.mjs (the deltas alone, with a zod schema, SSE bodies),
// every final value checked against JSON.parse, then CPU time interleaved round by round.
import { isDeepStrictEqual } from 'node:util';
import { z } from 'zod';
import { deltasOf, MODEL_READERS, openAIChatBody } from '../competitors/model.mjs';
import { answerParent } from '../harness/fork.mjs';
import { cpuMs, pieces } from '../harness/stats.mjs';
import { corpusDocument } from './corpus.mjs';

/** The corpus document's schema (bench/partial/corpus.mjs writes it). */
export function documentSchema() {
  const number = z.number();
  const item = z.object({
    name: z.string(),
    price: number,
    qty: z.number().int().min(1),
    available: z.boolean(),
    note: z.string().nullable(),
  });
  const section = z.object({
    index: z.number().int().min(0),
    heading: z.string(),
    body: z.string(),
    tags: z.array(z.string()).min(1),
    stats: z.object({ count: number, ratio: number, delta: number, big: number, small: number }),
    items: z.array(item),
    points: z.array(z.tuple([number, number])),
  });
  return z.object({
    id: z.string().startsWith('call_'),
    title: z.string(),
    summary: z.string(),
    sections: z.array(section),
    meta: z.object({ model: z.string(), tokens: z.number().int(), finished: z.boolean(), score: number }),
  });
}

export async function measure({ rounds, bytes, deltas: count, chunk, only }) {
  const text = corpusDocument(bytes);
  const deltas = deltasOf(text, count);
  const body = openAIChatBody(deltas);
  const input = { deltas, chunks: pieces(new TextEncoder().encode(body), chunk) };
  const schema = documentSchema();
  const expected = JSON.parse(text);

  const variants = {};
  const labels = {};
  for (const id of only) {
    const reader = await MODEL_READERS[id]();
    variants[id] = () => reader.read(input);
    labels[id] = reader.label;
    if (id === 'partial') {
      variants.schema = () => reader.read(input, schema);
      labels.schema = `${reader.label}, with a zod ${Object.values(z.core.version).join('.')} schema`;
    }
  }
  for (const [id, read] of Object.entries(variants)) {
    if (!isDeepStrictEqual(await read(), expected)) throw new Error(`${labels[id]}: a wrong final value`);
  }
  // After a warm-up, each round: 10 slices of about 20 ms per reader, in an order rotated every slice (a reader
  // slower than a slice, ai, runs once a round), so that the load of a shared machine falls on all alike.
  const ids = Object.keys(variants);
  const repeats = {};
  for (const id of ids) {
    const start = process.cpuUsage();
    let n = 0;
    while (n < 2 || cpuMs(start) < 500) {
      await variants[id]();
      n++;
    }
    repeats[id] = Math.max(1, Math.round((20 * n) / cpuMs(start)));
  }
  const times = Object.fromEntries(ids.map((id) => [id, []]));
  for (let round = 0; round < rounds; round++) {
    const spent = Object.fromEntries(ids.map((id) => [id, [0, 0]]));
    for (let slice = 0; slice < 10; slice++) {
      for (let k = 0; k < ids.length; k++) {
        const id = ids[(k + slice + round) % ids.length];
        if (repeats[id] === 1 && slice > 0) continue;
        const start = process.cpuUsage();
        for (let r = 0; r < repeats[id]; r++) await variants[id]();
        spent[id][0] += cpuMs(start);
        spent[id][1] += repeats[id];
      }
    }
    for (const id of ids) times[id].push(spent[id][0] / spent[id][1]);
  }
  return {
    bytes: new TextEncoder().encode(text).length,
    deltas: deltas.length,
    bodyBytes: new TextEncoder().encode(body).length,
    chunk,
    labels,
    times,
  };
}

await answerParent(measure);
