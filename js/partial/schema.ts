// The `schema` option of createPartialParser and partialJson: any Standard Schema (zod 4, valibot 1, arktype...).
// Where the schema also offers a JSON Schema of its input (the Standard JSON Schema interface, `~standard.jsonSchema`,
// which zod 4 and arktype implement), each value is checked against it once, when it ends (json_schema.ts), so a
// violation stops the parse at the byte that completes the offending value. The final value is always the schema's
// own validate() output (transforms and defaults applied), whether or not a JSON Schema was available.
import { JsonSchemaError, type JsonSchemaIssue } from '../errors.js';
import { mustBe, type ApiName } from '../validate.js';
import { check, compileSchema, elementNode, memberNode, openAs, type SchemaNode } from './json_schema.js';
import type { StandardResult, StandardSchemaV1 } from './standard_schema.js';
import type { Frame } from './frame.js';

/** A position for an error: byte offset, line, column. */
export interface Where {
  readonly offset: number;
  readonly line: number;
  readonly column: number;
}

/** The compiled JSON Schema, walked along the parser's open containers. */
export class SchemaTracker {
  /** The node of each open container, root first (null: not checked there). */
  private readonly nodes_: (SchemaNode | null)[] = [];
  /** The issue that stopped the parse. */
  issue: { message: string; path: (string | number)[] } | null = null;

  constructor(private readonly root_: SchemaNode) {}

  /** The node of the value starting (or ending) in the innermost container's current slot. */
  private slot_(frames: readonly Frame[]): SchemaNode | null {
    const depth = frames.length;
    if (depth === 0) return this.root_;
    const parent = this.nodes_[depth - 1]!;
    if (parent === null || parent.whole) return null;
    const frame = frames[depth - 1]!;
    return frame.isArray ? elementNode(parent, frame.index) : memberNode(parent, frame.key);
  }

  /** A container opens in the current slot (call before the tree pushes its frame). */
  open(frames: readonly Frame[], isArray: boolean): void {
    const node = this.slot_(frames);
    this.nodes_.push(node === null ? null : openAs(node, isArray));
  }

  /** A scalar ended in the current slot: false (and `issue` set) if it violates its node. */
  scalar(frames: readonly Frame[], value: unknown, path: () => (string | number)[]): boolean {
    const node = this.slot_(frames);
    if (node === null) return true;
    const issue = check(node, value, true, []);
    if (issue === null) return true;
    this.issue = { message: issue.message, path: path() };
    return false;
  }

  /** The innermost container closed with this value (call after the tree popped its frame). */
  close(value: unknown, path: () => (string | number)[]): boolean {
    const node = this.nodes_.pop();
    if (node === null || node === undefined) return true;
    const issue = check(node, value, true, []);
    if (issue === null) return true;
    this.issue = { message: issue.message, path: [...path(), ...issue.path] };
    return false;
  }
}

/** What the `schema` option holds: the Standard Schema, and its compiled JSON Schema if one was available. */
export interface ResolvedSchema {
  readonly standard: StandardSchemaV1['~standard'];
  readonly node: SchemaNode | null;
}

/**
 * Each schema's compiled JSON Schema (or null: none), by the schema object: converting a zod schema took about a
 * quarter of the CPU of a 20 kB tool call's 4,000 deltas (bench:partial), and an app passes one schema to every
 * call's parser. Schemas of the Standard Schema libraries are immutable; compiled nodes are never changed.
 */
const compiled = new WeakMap<object, SchemaNode | null>();

/** Checks and compiles the `schema` option. */
export function resolveSchema(api: ApiName, schema: unknown, subject = 'options.schema'): ResolvedSchema | null {
  if (schema === undefined) return null;
  const standard =
    schema !== null && (typeof schema === 'object' || typeof schema === 'function')
      ? (schema as { '~standard'?: unknown })['~standard']
      : undefined;
  if (
    standard === null ||
    typeof standard !== 'object' ||
    (standard as { version?: unknown }).version !== 1 ||
    typeof (standard as { validate?: unknown }).validate !== 'function'
  ) {
    throw mustBe(api, subject, 'a Standard Schema (an object with a "~standard" property, version 1)', schema);
  }
  const s = standard as StandardSchemaV1['~standard'];
  const known = compiled.get(schema as object);
  if (known !== undefined) return { standard: s, node: known };
  let node: SchemaNode | null = null;
  const converter = s.jsonSchema;
  if (converter !== undefined && typeof converter?.input === 'function') {
    try {
      node = compileSchema(converter.input({ target: 'draft-2020-12' }));
    } catch {
      // A schema its library cannot express as JSON Schema (a date, a custom check): only end() validates.
      node = null;
    }
  }
  compiled.set(schema as object, node);
  return { standard: s, node };
}

/** The path of a Standard Schema issue, as keys and indices. */
function pathOf(path: readonly (PropertyKey | { readonly key: PropertyKey })[] | undefined): (string | number)[] {
  if (path === undefined) return [];
  return path.map((segment) => {
    const key = typeof segment === 'object' && segment !== null ? segment.key : segment;
    return typeof key === 'number' ? key : String(key);
  });
}

/** @internal What the TypeError for an asynchronous schema in a synchronous check says (readModelStream's too). */
export const ASYNC_SCHEMA = 'the schema validates asynchronously';

/** The schema's validate() of the final value: its output, or a JsonSchemaError at `where` (the end). */
export function validateFinal<T>(schema: ResolvedSchema, raw: unknown, where: Where, async: boolean): T | Promise<T> {
  const result = schema.standard.validate(raw);
  const settle = (r: StandardResult<unknown>): T => {
    if (r.issues === undefined) return r.value as T;
    const issues: JsonSchemaIssue[] = r.issues.map((i) => ({ message: i.message, path: pathOf(i.path) }));
    throw new JsonSchemaError(issues, where);
  };
  if (result !== null && typeof (result as { then?: unknown }).then === 'function') {
    if (!async) {
      throw new TypeError(`parser.end(): ${ASYNC_SCHEMA}; use partialJson(), which awaits it, or a synchronous schema`);
    }
    return Promise.resolve(result).then(settle);
  }
  return settle(result as StandardResult<unknown>);
}
