// node bench/sse/main.mjs [rounds]: server-sent events in, parseEventStream against eventsource-parser (fed by a
// streaming TextDecoder) on 40,000 small events and one 8 MiB line, in 1,460-byte and 64 KiB pieces (MB/s of input);
// and out, stringifyEventStream against `data: ${JSON.stringify(x)}\n\n` through a TextEncoderStream over 100,000
// small objects of an async generator. CPU-time medians of rounds alternating the order (default 7).
import { init, parseEventStream, stringifyEventStream } from '../../dist/index.js';
import { rootPackage } from '../competitors/model.mjs';
import { chunksOf, mdTable, pieces, upperMedian as median } from '../harness/stats.mjs';

// The root's eventsource-parser (4, the tests' oracle): bench/node_modules holds ai's older copy.
const esp = await rootPackage('eventsource-parser');
const ROUNDS = Number(process.argv[2] ?? 7);
const WRITE_EVENTS = 100_000;
const encoder = new TextEncoder();
const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

/** Each of `runners` once per round after one uncounted, in alternating order: their CPU-time medians (ms). */
async function alternate(runners, what) {
  const times = Object.fromEntries(Object.keys(runners).map((k) => [k, []]));
  const results = new Set();
  for (let round = -1; round < ROUNDS; round++) {
    const order = Object.keys(runners);
    if (round % 2 === 1) order.reverse();
    for (const name of order) {
      const start = cpuMs();
      results.add(await runners[name]());
      if (round >= 0) times[name].push(cpuMs() - start);
    }
  }
  if (results.size !== 1) throw new Error(`${what}: the runners disagree (${[...results]})`);
  return { ms: Object.fromEntries(Object.entries(times).map(([k, t]) => [k, median(t)])), result: [...results][0] };
}

function deltas(count) {
  let text = '';
  for (let i = 0; i < count; i++) {
    const delta = { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: `tok ${i} é` } };
    text += `event: content_block_delta\nid: ${i}\ndata: ${JSON.stringify(delta)}\n\n`;
    if (i % 500 === 0) text += ': ping\n\n';
  }
  return encoder.encode(text);
}

const STREAMS = {
  '40,000 small events': deltas(40_000),
  'one 8 MiB data line': encoder.encode(`data: ${'x'.repeat(8 * 1024 * 1024)}\n\n`),
};
const PARSERS = {
  'sluice parseEventStream': async (chunks) => {
    let n = 0;
    for await (const event of parseEventStream(chunksOf(chunks))) n += event.data.length;
    return n;
  },
  [`eventsource-parser ${esp.version}`]: async (chunks) => {
    let n = 0;
    const parser = esp.module.createParser({ onEvent: (event) => (n += event.data.length) });
    const decoder = new TextDecoder();
    for await (const chunk of chunksOf(chunks)) parser.feed(decoder.decode(chunk, { stream: true }));
    return n;
  },
};

console.log(`node ${process.version}, ${ROUNDS} rounds, medians of CPU time`);
const rows = [];
for (const [name, bytes] of Object.entries(STREAMS)) {
  for (const size of [1460, 64 * 1024]) {
    const chunks = pieces(bytes, size);
    const runners = Object.fromEntries(Object.entries(PARSERS).map(([k, parse]) => [k, () => parse(chunks)]));
    const { ms } = await alternate(runners, `${name}: the data`);
    for (const parser of Object.keys(PARSERS)) {
      const mbs = bytes.length / 1e6 / (ms[parser] / 1000);
      rows.push([`${name} (${(bytes.length / 1e6).toFixed(1)} MB)`, size, parser, mbs.toFixed(0)]);
    }
  }
}
console.log(mdTable(['stream', 'pieces', 'parser', 'MB/s'], rows, ['---:', '---', '---:']).join('\n'));

async function* smallObjects() {
  for (let i = 0; i < WRITE_EVENTS; i++) yield { id: i, type: 'delta', text: `tok ${i} é`, done: false, score: i / 7 };
}
async function drain(stream) {
  let bytes = 0;
  for await (const chunk of stream) bytes += chunk.length;
  return bytes;
}
const WRITERS = {
  'sluice stringifyEventStream': () => drain(stringifyEventStream(smallObjects())),
  'JSON.stringify + TextEncoderStream': () => {
    const source = smallObjects();
    const text = new ReadableStream({
      async pull(controller) {
        const { done, value } = await source.next();
        if (done) controller.close();
        else controller.enqueue(`data: ${JSON.stringify(value)}\n\n`);
      },
    });
    return drain(text.pipeThrough(new TextEncoderStream()));
  },
};

await init();
console.log(`\n${WRITE_EVENTS.toLocaleString('en-US')} small objects from an async generator, written as events`);
const { ms, result: written } = await alternate(WRITERS, 'the output length');
const writes = Object.keys(WRITERS).map((writer) => {
  const seconds = ms[writer] / 1000;
  return [writer, Math.round(WRITE_EVENTS / seconds).toLocaleString('en-US'), (written / 1e6 / seconds).toFixed(0)];
});
console.log(mdTable(['writer', 'events/s', 'MB/s'], writes).join('\n'));
