// Server-sent events in: parse throughput (MB/s of input, CPU time) of sluice's parseEventStream against
// eventsource-parser's createParser on the same bytes, in 1,460-byte and 64 KiB pieces. Both decode the bytes
// (eventsource-parser takes strings: a streaming TextDecoder feeds it, as its EventSourceParserStream does).
// Two streams: 40,000 small events shaped like a model's streamed deltas, and one event of a single 8 MiB data line.
// Rounds alternate between the two parsers; the medians are reported. `node bench/sse/main.mjs [rounds]`.
// Server-sent events out: stringifyEventStream over 100,000 small objects from an async generator against the
// hand-written `data: ${JSON.stringify(x)}\n\n` through a TextEncoderStream, read to the end (events/s, MB/s of
// output, CPU-time medians of alternated rounds).
import { init, parseEventStream, stringifyEventStream } from '../../dist/index.js';
import { rootPackage } from '../competitors/model.mjs';

// The root's eventsource-parser (4, the tests' oracle): bench/node_modules holds ai's older copy.
const esp = await rootPackage('eventsource-parser');
const { createParser } = esp.module;

const ROUNDS = Number(process.argv[2] ?? 7);
const encoder = new TextEncoder();

function deltas(count) {
  let text = '';
  for (let i = 0; i < count; i++) {
    const delta = JSON.stringify({
      type: 'content_block_delta',
      index: 0,
      delta: { type: 'text_delta', text: `tok ${i} é` },
    });
    text += `event: content_block_delta\nid: ${i}\ndata: ${delta}\n\n`;
    if (i % 500 === 0) text += ': ping\n\n';
  }
  return encoder.encode(text);
}

const STREAMS = {
  '40,000 small events': deltas(40_000),
  'one 8 MiB data line': encoder.encode(`data: ${'x'.repeat(8 * 1024 * 1024)}\n\n`),
};

function pieces(bytes, size) {
  const out = [];
  for (let i = 0; i < bytes.length; i += size) out.push(bytes.subarray(i, i + size));
  return out;
}

const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

async function* chunksOf(chunks) {
  for (const chunk of chunks) yield chunk;
}

const PARSERS = {
  'sluice parseEventStream': async (chunks) => {
    let n = 0;
    for await (const event of parseEventStream(chunksOf(chunks))) n += event.data.length;
    return n;
  },
  [`eventsource-parser ${esp.version}`]: async (chunks) => {
    let n = 0;
    const parser = createParser({ onEvent: (event) => (n += event.data.length) });
    const decoder = new TextDecoder();
    for await (const chunk of chunksOf(chunks)) parser.feed(decoder.decode(chunk, { stream: true }));
    return n;
  },
};

const median = (values) => [...values].sort((a, b) => a - b)[values.length >> 1];

console.log(`node ${process.version}, ${ROUNDS} rounds, medians of CPU time`);
console.log('| stream | pieces | parser | MB/s |\n|---|---:|---|---:|');
for (const [name, bytes] of Object.entries(STREAMS)) {
  for (const size of [1460, 64 * 1024]) {
    const chunks = pieces(bytes, size);
    const times = Object.fromEntries(Object.keys(PARSERS).map((k) => [k, []]));
    const lengths = new Set();
    for (let round = -1; round < ROUNDS; round++) {
      const order = Object.keys(PARSERS);
      if (round % 2 === 1) order.reverse();
      for (const parser of order) {
        const start = cpuMs();
        lengths.add(await PARSERS[parser](chunks));
        if (round >= 0) times[parser].push(cpuMs() - start);
      }
    }
    if (lengths.size !== 1) throw new Error(`${name}: the parsers disagree on the data (${[...lengths]})`);
    for (const parser of Object.keys(PARSERS)) {
      const mbs = bytes.length / 1e6 / (median(times[parser]) / 1000);
      console.log(`| ${name} (${(bytes.length / 1e6).toFixed(1)} MB) | ${size} | ${parser} | ${mbs.toFixed(0)} |`);
    }
  }
}

const WRITE_EVENTS = 100_000;

async function* smallObjects() {
  for (let i = 0; i < WRITE_EVENTS; i++) {
    yield { id: i, type: 'delta', text: `tok ${i} é`, done: false, score: i / 7 };
  }
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
console.log('| writer | events/s | MB/s |\n|---|---:|---:|');
const writeTimes = Object.fromEntries(Object.keys(WRITERS).map((k) => [k, []]));
const outputBytes = new Set();
for (let round = -1; round < ROUNDS; round++) {
  const order = Object.keys(WRITERS);
  if (round % 2 === 1) order.reverse();
  for (const writer of order) {
    const start = cpuMs();
    outputBytes.add(await WRITERS[writer]());
    if (round >= 0) writeTimes[writer].push(cpuMs() - start);
  }
}
if (outputBytes.size !== 1) throw new Error(`the writers disagree on the output length (${[...outputBytes]})`);
const [written] = outputBytes;
for (const writer of Object.keys(WRITERS)) {
  const seconds = median(writeTimes[writer]) / 1000;
  const rate = Math.round(WRITE_EVENTS / seconds).toLocaleString('en-US');
  console.log(`| ${writer} | ${rate} | ${(written / 1e6 / seconds).toFixed(0)} |`);
}
