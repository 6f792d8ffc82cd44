// The push parser's module as JS sees it (js/native/contract.ts, NativeModule): its plain C exports
// (wasm/bindings.cpp) wrapped in a small Parser class. A bare module, without Emscripten's glue or embind: they were
// 9.6 kB of the page's JS (gzip), and a raw call costs about 20 ns where embind's cost 400.
import {
  ROLE_END_MARKER,
  ROLE_START_MARKER,
  ROLE_VALUE,
  VIEW_INPUT_CAPACITY,
  VIEW_INPUT_PTR,
  type NativeModule,
  type NativeParser,
} from './contract.js';
import { keyBytes } from './wtf8.js';

/** The raw exports. A parser is its address; every call may grow memory. */
export interface ParserExports {
  parser_new(maxDepth: number, maxElementBytes: number, flags: number): number;
  parser_delete(parser: number): void;
  /** The path is the n bytes at input_ptr. */
  parser_add_path(parser: number, role: number, n: number): number;
  parser_feed(parser: number, n: number): number;
  parser_finish(parser: number): number;
  /** The caller could not keep the last call's carry: the parser fails with out_of_memory at `offset`. */
  parser_fail_out_of_memory(parser: number, offset: number): number;
  parser_save(parser: number): void;
  parser_load(parser: number, n: number): number;
  parser_view_address(): number;
  parser_reserve(n: number): number;
  parser_heap_in_use(): number;
  parser_build_simd(): number;
}

/** Every export of the module JS reads: tests/node/wasm_exports.test.ts checks the module has no others. */
export const PARSER_EXPORTS = [
  'parser_new',
  'parser_delete',
  'parser_add_path',
  'parser_feed',
  'parser_finish',
  'parser_fail_out_of_memory',
  'parser_save',
  'parser_load',
  'parser_view_address',
  'parser_reserve',
  'parser_heap_in_use',
  'parser_build_simd',
] as const satisfies readonly (keyof ParserExports)[];

/** The NativeModule of an instance whose exports are `m` (checked by the loader) and memory `memory`. */
export function bindParserModule(m: ParserExports, memory: WebAssembly.Memory): NativeModule {
  const viewAddress = m.parser_view_address();
  const windowField = (field: number): number => new Uint32Array(memory.buffer, viewAddress, 2)[field]!;

  const length: [number] = [0];

  // Writes the path at input_ptr as WTF-8, as the core decodes `\uD800` in a key (growing the window for a path
  // longer than it), then adds it.
  function addPath(parser: number, role: number, path: string | Uint8Array): number {
    let bytes = path as Uint8Array;
    if (typeof path === 'string') bytes = keyBytes(path, length).subarray(0, length[0]);
    if (bytes.length > windowField(VIEW_INPUT_CAPACITY) && m.parser_reserve(bytes.length) === 0) {
      throw new RangeError('sluice: out of memory for a path');
    }
    new Uint8Array(memory.buffer, windowField(VIEW_INPUT_PTR), bytes.length).set(bytes);
    return m.parser_add_path(parser, role, bytes.length);
  }

  class Parser implements NativeParser {
    /** The native parser's address; 0 once deleted, or when it could not be allocated (calls: out_of_memory). */
    private p_: number;

    constructor(maxDepth: number, maxElementBytes: number, flags: number) {
      this.p_ = m.parser_new(maxDepth, maxElementBytes, flags);
    }

    addPath(path: string | Uint8Array): number {
      return addPath(this.p_, ROLE_VALUE, path);
    }

    addMarkerPath_(path: string): number {
      return addPath(this.p_, ROLE_END_MARKER, path);
    }

    addStartMarkerPath_(path: string): number {
      return addPath(this.p_, ROLE_START_MARKER, path);
    }

    feed(n: number): number {
      return m.parser_feed(this.p_, n);
    }

    finish(): number {
      return m.parser_finish(this.p_);
    }

    failOutOfMemory_(offset: number): number {
      return m.parser_fail_out_of_memory(this.p_, offset);
    }

    save(): void {
      m.parser_save(this.p_);
    }

    load(n: number): boolean {
      return m.parser_load(this.p_, n) !== 0;
    }

    delete(): void {
      const p = this.p_;
      this.p_ = 0;
      m.parser_delete(p);
    }
  }

  return {
    Parser,
    view: () => viewAddress,
    reserve_: (n) => m.parser_reserve(n) !== 0,
    heapInUse: () => m.parser_heap_in_use(),
    buildKind_: () => (m.parser_build_simd() === 1 ? 'simd128' : 'scalar'),
  };
}

/** @internal The selector compiler's verdict on `path` (tests): -1 accepted, else the offending byte's index. */
export function pathVerdict(native: NativeModule, path: string): number {
  const parser = new native.Parser(1024, 1 << 20, 0);
  try {
    return parser.addPath(path);
  } finally {
    parser.delete();
  }
}
