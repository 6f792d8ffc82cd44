// createPartialParser, the public entry to the partial parser (partial_parser.ts): its typed overloads.
import { PartialCore } from './partial_parser.js';
import type { PartialJsonOptions, PartialParser, SchemaInput, SchemaOutput } from './partial_options.js';
import type { StandardSchemaV1 } from './standard_schema.js';

export type {
  PartialChunk,
  PartialJsonOptions,
  PartialParser,
  PartialValue,
  SchemaInput,
  SchemaOutput,
} from './partial_options.js';

/**
 * Creates a parser of one JSON text arriving in pieces, such as a language model's tool-call arguments, whose
 * value can be shown after every piece. Each snapshot shows only what the text already says: strings as far as
 * they are decoded (never half an escape, surrogate pair or UTF-8 sequence), numbers and literals once complete,
 * members once their key is complete and their value's type known. Snapshots are frozen and share every subtree
 * that did not change. Pure JavaScript: no `init()` needed.
 *
 * @example
 * const parser = createPartialParser<{ title: string }>();
 * for await (const delta of textDeltas) render(parser.push(delta));
 * const args = parser.end();
 *
 * @throws {TypeError} for invalid options.
 */
export function createPartialParser<S extends StandardSchemaV1>(
  options: PartialJsonOptions & { readonly schema: S },
): PartialParser<SchemaInput<S>, SchemaOutput<S>>;
export function createPartialParser<T = unknown>(options?: PartialJsonOptions): PartialParser<T>;
export function createPartialParser<T = unknown>(options?: PartialJsonOptions): PartialParser<T> {
  return new PartialCore<T>('createPartialParser()', options);
}
