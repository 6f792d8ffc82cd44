// Types of the Emscripten factory (dist/sluice_glue.mjs, built with MODULARIZE + EXPORT_ES6), written by hand:
// only what js/native/loader.ts uses (the glue reads nothing else: -sINCOMING_MODULE_JS_API). Shared by the SIMD
// and scalar builds.
import type { NativeModule } from './contract.js';

/** The settings object the factory reads (and extends into the module object it resolves to). */
export interface SluiceGlueOptions {
  /**
   * Replaces Emscripten's own fetch-and-instantiate: instantiate with `imports`, then call `done`. Returning `{}`
   * tells the glue the exports arrive asynchronously through `done`.
   */
  instantiateWasm?(
    imports: WebAssembly.Imports,
    done: (instance: WebAssembly.Instance, module?: WebAssembly.Module) => void,
  ): object | false;
  /** Maps a file the glue would fetch to its URL; the glue calls it as it starts, even when nothing is fetched. */
  locateFile?(path: string, prefix: string): string;
  /** Called when the runtime aborts (before the glue throws). */
  onAbort?(what: unknown): void;
}

/** Resolves to the module object once the wasm instance is ready. */
declare function createModule(options?: SluiceGlueOptions): Promise<NativeModule>;
export default createModule;
