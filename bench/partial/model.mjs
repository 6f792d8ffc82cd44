// bench:partial's model case (issue 32): competitors/model.mjs's readers, checked against JSON.parse, then interleaved.
import { isDeepStrictEqual } from 'node:util';
import { z } from 'zod';
import { deltasOf, MODEL_READERS, openAIChatBody } from '../competitors/model.mjs';
import { answerParent } from '../harness/runtime.mjs';
import { interleaveCpu, pieces } from '../harness/stats.mjs';
import { corpusDocument } from './corpus.mjs';

/** The corpus document's schema (bench/partial/corpus.mjs writes it). */
function documentSchema() {
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

async function measure({ rounds, bytes, deltas: count, chunk }) {
  const text = corpusDocument(bytes);
  const deltas = deltasOf(text, count);
  const body = openAIChatBody(deltas);
  const input = { deltas, chunks: pieces(new TextEncoder().encode(body), chunk) };
  const schema = documentSchema();
  const expected = JSON.parse(text);

  const variants = {};
  const labels = {};
  for (const [id, load] of Object.entries(MODEL_READERS)) {
    const reader = await load();
    variants[id] = () => reader.read(input);
    labels[id] = reader.label;
    if (id === 'partial') {
      variants.schema = () => reader.read(input, schema);
      labels.schema = `${reader.label}, with a zod ${Object.values(z.core.version).join('.')} schema`;
    }
  }
  for (const [id, read] of Object.entries(variants))
    if (!isDeepStrictEqual(await read(), expected)) throw new Error(`${labels[id]}: a wrong final value`);
  const times = await interleaveCpu(variants, { rounds });
  return {
    bytes: Buffer.byteLength(text),
    deltas: deltas.length,
    bodyBytes: Buffer.byteLength(body),
    chunk,
    labels,
    times,
  };
}

await answerParent(measure);
