// The SIMD128 kernel and the scalar reference kernel classify every 64-byte block identically: stage-1 masks
// (quotes, escapes, in-string regions, structurals, scalar starts, string-content and UTF-8 errors) compared bit
// for bit on random inputs, with the state carried across blocks exercised by runs that straddle block edges.
// The masks come from the test-only wasm module of each build (tests/wasm/kernel_test.cpp, built next to the
// shipped module by `npm run build` and never shipped); both are loaded into this one process, so the result does
// not depend on the project running it.
import { readFileSync } from 'node:fs';
import { beforeAll, expect, inject, test } from 'vitest';
import { init } from '../../dist/index.js';
import { loadedBuildKind, nativeModule } from '../../dist/internal.js';
import { createRng, randomDocument } from '../support/random_json.mjs';

type Rng = ReturnType<typeof createRng>;

const SEED = Number(process.env.SLUICE_TEST_SEED ?? 0xb10c);
const INPUTS = 3000;
const wasm = (build: string) =>
  new Uint8Array(readFileSync(new URL(`../../dist/sluice.${build}.wasm`, import.meta.url)));

interface KernelTestExports {
  memory: WebAssembly.Memory;
  _initialize(): void;
  kernel_test_input(n: number): number;
  kernel_test_stage1(n: number, scalar: number): number;
  kernel_test_simd(): number;
}

interface Kernels {
  /**
   * The stage-1 masks of each 64-byte block of `input`, by the build's best kernel or, with `scalar`, by the
   * scalar one: per block 4 u64 masks (events, in_string, quote, error; bit i = byte i of the block), each as two
   * u32 words, low word first. The error word is (index + 1) | code << 32 (0: none), with bit 63 set when the
   * kernel's string-interior test disagrees with its classification. A copy, 8 words per block.
   */
  stage1Debug(input: Uint8Array, scalar?: boolean): Uint32Array;
  simd: boolean;
}

async function loadKernels(build: 'simd' | 'scalar'): Promise<Kernels> {
  const bytes = readFileSync(new URL(`../../build/wasm-${build}/tests/wasm/kernel_test.wasm`, import.meta.url));
  const { instance } = await WebAssembly.instantiate(bytes, { env: { emscripten_notify_memory_growth() {} } });
  const e = instance.exports as unknown as KernelTestExports;
  e._initialize();
  return {
    simd: e.kernel_test_simd() === 1,
    stage1Debug(input, scalar = false) {
      new Uint8Array(e.memory.buffer).set(input, e.kernel_test_input(input.length));
      const at = e.kernel_test_stage1(input.length, scalar ? 1 : 0) >>> 2;
      return new Uint32Array(e.memory.buffer).slice(at, at + Math.ceil(input.length / 64) * 8);
    },
  };
}

let simd: Kernels;
let scalar: Kernels;
let warmUp: { simd: number; scalar: number };

beforeAll(async () => {
  simd = await loadKernels('simd');
  scalar = await loadKernels('scalar');
  expect(simd.simd).toBe(true);
  expect(scalar.simd).toBe(false);
  await init(wasm('simd'));
  expect(loadedBuildKind()).toBe('simd128');
  const simdStatus = nativeModule().warmUpStatus();
  await init(wasm('scalar'));
  expect(loadedBuildKind()).toBe('scalar');
  warmUp = { simd: simdStatus, scalar: nativeModule().warmUpStatus() };
  // Leave the project's own build loaded, as the setup file did.
  await init(wasm(inject('sluiceBuild')));
});

test("init()'s warm-up document parses cleanly on both builds (an error would cut the warm-up short)", () => {
  expect(warmUp.simd).toBe(0);
  expect(warmUp.scalar).toBe(0);
});

// Bytes every mask reacts to: quotes, backslashes, structurals, whitespace, scalar starts, control characters,
// and UTF-8 lead/continuation bytes of every class (including never-valid ones).
const INTERESTING = [...'""\\\\{}[]:, \t\n\ratfn-0123456789.eEu']
  .map((c) => c.charCodeAt(0))
  .concat([
    0x00, 0x01, 0x1f, 0x7f, 0x80, 0x8f, 0x9f, 0xa0, 0xbf, 0xc0, 0xc1, 0xc2, 0xdf, 0xe0, 0xed, 0xef, 0xf0, 0xf4, 0xf5,
    0xff,
  ]);
const VALID_UTF8 = [
  'é',
  '€',
  '😀',
  '\u0800',
  '\uffff',
  '\u{10ffff}',
  '中',
  '文',
  '\ud7ff',
  '\ue000',
  '\u{10000}',
  '\u0080',
].map((c) => new TextEncoder().encode(c));
const HIGH = INTERESTING.filter((byte) => byte >= 0x80).concat([0x22, 0x61]);

function randomInput(rng: Rng): Uint8Array {
  const blocks = rng.range(1, 12);
  const out: number[] = [];
  const length = blocks * 64 - (rng.chance(0.5) ? rng.int(64) : 0);
  const mode = rng.int(5);
  if (mode === 4) {
    // Dense non-ASCII text (CJK-like: every byte high), where the SIMD128 build checks UTF-8 a whole block at a
    // time: a few corrupted bytes (a stray lead or continuation, an overlong, a surrogate lead, a cut sequence)
    // must be reported at the same byte as by the sequence-at-a-time check.
    while (out.length < length) out.push(...rng.pick(VALID_UTF8));
    for (let n = rng.int(3); n > 0; n--) out[rng.int(length)] = rng.pick(HIGH);
    return Uint8Array.from(out.slice(0, length));
  }
  if (mode === 3) {
    // Valid JSON: the common case must agree too, not just noise.
    const text = new TextEncoder().encode(randomDocument(rng, { budget: 40 }));
    return text.subarray(0, Math.min(text.length, length));
  }
  while (out.length < length) {
    if (mode === 0) {
      out.push(rng.int(256));
    } else if (mode === 1 || rng.chance(0.7)) {
      out.push(rng.pick(INTERESTING));
    } else {
      switch (rng.int(3)) {
        case 0: // a backslash run, odd or even, often crossing a block edge
          for (let n = rng.range(1, 130); n > 0; n--) out.push(0x5c);
          break;
        case 1: // a string that may span blocks
          out.push(0x22);
          for (let n = rng.range(0, 150); n > 0; n--) out.push(rng.chance(0.9) ? 0x61 : rng.pick(INTERESTING));
          out.push(0x22);
          break;
        default:
          out.push(...rng.pick(VALID_UTF8));
      }
    }
  }
  return Uint8Array.from(out.slice(0, length));
}

function firstMismatch(a: Uint32Array, b: Uint32Array): number {
  if (a.length !== b.length) return Math.min(a.length, b.length);
  return a.findIndex((word, i) => word !== b[i]);
}

test('stage-1 masks depend on the input (so agreement means something)', () => {
  const quotes = simd.stage1Debug(new Uint8Array(128).fill(0x22));
  const letters = simd.stage1Debug(new Uint8Array(128).fill(0x61));
  expect(firstMismatch(quotes, letters)).toBeGreaterThanOrEqual(0);
  expect(quotes.some((word) => word !== 0)).toBe(true);
});

function expectSameMasks(input: Uint8Array, a: Uint32Array, b: Uint32Array, what: string) {
  const at = firstMismatch(a, b);
  if (at < 0) return;
  const hex = Array.from(input, (byte) => byte.toString(16).padStart(2, '0')).join('');
  expect.fail(
    `${what}, ${input.length} bytes: word ${at} (block ${Math.floor(at / 8)}) differs: ` +
      `${a[at]?.toString(16)} vs ${b[at]?.toString(16)}; input ${hex}`,
  );
}

test(`the SIMD128 build and the scalar build agree bit for bit on ${INPUTS} random inputs (seed ${SEED})`, () => {
  const rng = createRng(SEED);
  for (let n = 0; n < INPUTS; n++) {
    const input = randomInput(rng);
    const a = simd.stage1Debug(input);
    expect(a.length).toBe(Math.ceil(input.length / 64) * 8);
    expectSameMasks(input, a, scalar.stage1Debug(input), `input ${n}: simd128 build vs scalar build`);
  }
});

test('within the SIMD128 build, its SIMD and scalar kernels agree too', () => {
  const rng = createRng(SEED + 1);
  for (let n = 0; n < INPUTS; n++) {
    const input = randomInput(rng);
    expectSameMasks(
      input,
      simd.stage1Debug(input),
      simd.stage1Debug(input, true),
      `input ${n}: simd128 vs scalar kernel`,
    );
  }
});

test('dense non-ASCII blocks: every malformed UTF-8 sequence at every position, where the scalar build says', () => {
  // Blocks of 3-byte characters take the SIMD128 build's vector check; each pattern below breaks it at one
  // position (a block edge included), alone or right after a sequence carried over from the previous block.
  const patterns = [
    [0x80],
    [0xbf], // a stray continuation
    [0xc0, 0xaf],
    [0xc1, 0xbf],
    [0xe0, 0x80, 0xaf],
    [0xf0, 0x80, 0x80, 0xaf], // overlongs
    [0xed, 0xa0, 0x80],
    [0xed, 0xbf, 0xbf], // surrogates
    [0xf4, 0x90, 0x80, 0x80],
    [0xf5, 0x80, 0x80, 0x80],
    [0xff], // above U+10FFFF, never-valid leads
    [0xe4, 0xb8],
    [0xf0, 0x9f, 0x98],
    [0xc3], // cut short by a character
    [0xe4, 0xb8, 0xad, 0xad], // one continuation too many
  ];
  const dense = (n: number) => Array.from({ length: n }, (_, i) => [0xe4, 0xb8, 0xad][i % 3]!);
  let checked = 0;
  for (const pattern of patterns) {
    for (let at = 0; at < 140; at++) {
      for (const shift of [0, 1, 2]) {
        // Inside a string (stage 1 reports UTF-8 errors there only); `shift` bytes of ASCII first move the
        // character grid, so the pattern meets every alignment.
        const ascii = new Array<number>(shift).fill(0x61);
        const bytes = [0x22, ...ascii, ...dense(at), ...pattern, ...dense(200)].slice(0, 192);
        const input = Uint8Array.from(bytes);
        const what = `pattern ${pattern} at ${at}+${shift}`;
        expectSameMasks(input, simd.stage1Debug(input), scalar.stage1Debug(input), what);
        checked++;
      }
    }
  }
  expect(checked).toBe(patterns.length * 140 * 3);
  // And the errors are there to be found: the first pattern, a stray continuation, right after the quote.
  const words = scalar.stage1Debug(Uint8Array.from([0x22, 0x80, ...dense(62)]));
  expect(words[6]).toBe(2); // error_at + 1 of block 0 (its low word): the byte at index 1
  expect(words[7]).toBe(12); // the error code: INVALID_UTF8
});
