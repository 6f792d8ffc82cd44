// Child process of parser_memory.test.ts: push parsers in a synchronous loop, where no finalizer ever gets a turn.
// Prints one JSON line with what it measured, or the error that stopped it.
//
//   node parser_memory_child.mjs simd|scalar dropped-big COUNT   parsers each left holding a 300 KB partial element
//   node parser_memory_child.mjs simd|scalar dropped-tiny COUNT  parsers each left after one small chunk
//   node parser_memory_child.mjs simd|scalar idle COUNT          COUNT parsers kept reachable, each after one chunk
//                                                                 (run with --expose-gc): what one costs
//   node parser_memory_child.mjs simd|scalar huge-string MIB     one string of MIB MiB of 'é' as the only element,
//                                                                 through createParser (value) and openJson().get()
//   node parser_memory_child.mjs simd|scalar string-limit        a 512 MiB element in value output, maxElementBytes
//                                                                 1 GiB: the error where strings end
import { readFileSync } from 'node:fs';

const [build, kind, countText] = [process.argv[2], process.argv[3], Number(process.argv[4])];
const dist = new URL('../../dist/', import.meta.url);
const { init, createParser, openJson } = await import(new URL('index.js', dist).href);
const { nativeModule } = await import(new URL('internal.js', dist).href);
await init(readFileSync(new URL(`sluice.${build}.wasm`, dist)));
const heap = () => nativeModule().heapInUse();
const rss = () => process.memoryUsage().rss;
const describe = (e) => ({ name: e.name, code: e.code, message: String(e.message).slice(0, 200) });

async function dropped(count, chunk, check) {
  const baseHeap = heap();
  let peakHeap = 0;
  let peakRss = 0;
  let done = 0;
  let error = null;
  // In a function of its own, so that nothing of a parser outlives its turn.
  const one = () => {
    const parser = createParser();
    check(parser.push(chunk));
  };
  try {
    for (let i = 0; i < count; i++) {
      one();
      done++;
      if (i % 100 === 0) {
        peakHeap = Math.max(peakHeap, heap() - baseHeap);
        peakRss = Math.max(peakRss, rss());
      }
    }
  } catch (e) {
    error = describe(e);
  }
  return { done, peakHeap, peakRss, error };
}

async function idle(count) {
  globalThis.gc();
  const baseHeap = heap();
  const baseJs = process.memoryUsage().heapUsed;
  const parsers = [];
  for (let i = 0; i < count; i++) {
    const parser = createParser({ path: '$.rows[*].name', withPath: true });
    parser.push('{"rows":[{"id":1,"name":"a"},{"id":2,"na');
    parsers.push(parser);
  }
  globalThis.gc();
  const wasmPerParser = (heap() - baseHeap) / count;
  const jsPerParser = (process.memoryUsage().heapUsed - baseJs) / count;
  // Still working: each one completes its element.
  let names = 0;
  for (const parser of parsers) names += parser.push('me":"b"}]}').length;
  for (const parser of parsers) parser.end();
  return { count, wasmPerParser, jsPerParser, names, heapAfter: heap() - baseHeap };
}

async function hugeString(mib) {
  // 'é' is C3 A9: the element is `"` + mib MiB of it + `"`, the document `{"s":...}`.
  const body = Buffer.alloc(mib * 1024 * 1024, Buffer.from('é'));
  const head = Buffer.from('{"s":"');
  const tail = Buffer.from('"}');
  const chunks = async function* () {
    yield head;
    for (let i = 0; i < body.length; i += 65536) yield body.subarray(i, i + 65536);
    yield tail;
  };
  const expected = body.length / 2;
  const result = { mib, parser: null, openJson: null };
  try {
    const parser = createParser({ path: '$.s' });
    let got = [];
    for await (const chunk of chunks()) got = got.concat(parser.push(chunk));
    got = got.concat(parser.end());
    result.parser =
      got.length === 1 && got[0].length === expected && got[0].charCodeAt(expected - 1) === 0xe9
        ? 'ok'
        : `wrong: ${got.length} elements`;
    got = null;
  } catch (e) {
    result.parser = describe(e);
  }
  try {
    const doc = openJson(chunks(), { transient: true });
    const s = await doc.get('$.s');
    result.openJson = typeof s === 'string' && s.length === expected && s.charCodeAt(0) === 0xe9 ? 'ok' : 'wrong';
  } catch (e) {
    result.openJson = describe(e);
  }
  return result;
}

// value output with maxElementBytes 1 GiB: an element of 512 MiB is too long for a string in V8; the parser stops
// at the longest string every engine holds (2^29 - 24 bytes past its first byte) with a JsonLimitError.
async function stringLimit() {
  const chunk = Buffer.alloc(65536, 'x');
  const parser = createParser({ maxElementBytes: 2 ** 30 });
  let error = null;
  let fed = 0;
  try {
    parser.push('["');
    for (; fed < 2 ** 29; fed += chunk.length) parser.push(chunk);
    parser.push('"]');
    parser.end();
  } catch (e) {
    error = { name: e.name, code: e.code, offset: e.offset, line: e.line, column: e.column, message: e.message };
  }
  return { fed, error };
}

let result;
switch (kind) {
  case 'dropped-big': {
    // The element stays open: nothing completes.
    const chunk = `[1,"${'x'.repeat(300_000)}`;
    result = await dropped(countText, chunk, (out) => {
      if (out.length !== 1 || out[0] !== 1) throw new Error('wrong elements');
    });
    break;
  }
  case 'dropped-tiny':
    result = await dropped(countText, '[1,2,', (out) => {
      if (out.length !== 2) throw new Error('wrong elements');
    });
    break;
  case 'idle':
    result = await idle(countText);
    break;
  case 'huge-string':
    result = await hugeString(countText);
    break;
  case 'string-limit':
    result = await stringLimit();
    break;
  default:
    throw new Error(`unknown kind ${kind}`);
}
console.log(JSON.stringify(result));
