// A small JSON Schema checker for the partial parser's `schema` option (schema.ts): the subset a schema library's
// converter emits for data shapes (type, properties, required, additionalProperties, items, prefixItems, enum,
// const, the numeric and length bounds, pattern, anyOf/oneOf/allOf/not, $ref into $defs). The parser walks it along
// its path as containers open, so each value is checked once, when it ends: a scalar against its node, a container
// against its own keywords only (its members were checked when they ended). Below a node whose members cannot be
// placed without the whole value (a union that more than one branch of the container's type could match, allOf,
// not, patternProperties), nothing is checked until that node's value ends; then it is checked whole, once.
// Keywords outside the subset are ignored here: the schema's own validate() at end() sees them.

type Json = Record<string, unknown>;

const NULL = 1;
const BOOLEAN = 2;
const INTEGER = 4;
const NUMBER = 8;
const STRING = 16;
const ARRAY = 32;
const OBJECT = 64;
const ALL = 127;
const TYPE_BITS: Record<string, number> = {
  null: NULL,
  boolean: BOOLEAN,
  integer: INTEGER,
  number: NUMBER | INTEGER,
  string: STRING,
  array: ARRAY,
  object: OBJECT,
};

/** A compiled schema node. `false` schemas are nodes that accept no type. */
export class SchemaNode {
  types = ALL;
  properties: Map<string, SchemaNode> | null = null;
  required: readonly string[] | null = null;
  /** additionalProperties: a node, or null (anything). */
  additional: SchemaNode | null = null;
  prefix: SchemaNode[] | null = null;
  items: SchemaNode | null = null;
  enumValues: unknown[] | null = null;
  hasConst = false;
  constValue: unknown = undefined;
  minimum = -Infinity;
  maximum = Infinity;
  exclusiveMinimum = -Infinity;
  exclusiveMaximum = Infinity;
  multipleOf = 0;
  minLength = 0;
  maxLength = Infinity;
  pattern: RegExp | null = null;
  minItems = 0;
  maxItems = Infinity;
  minProperties = 0;
  maxProperties = Infinity;
  anyOf: SchemaNode[] | null = null;
  oneOf: SchemaNode[] | null = null;
  allOf: SchemaNode[] | null = null;
  not: SchemaNode | null = null;
  patterns: [RegExp, SchemaNode][] | null = null;
  /** Its members cannot be checked one by one: the value is checked whole when it ends. */
  whole = false;
  /** The node a container of each kind opens into (anyOf/oneOf with one branch of that kind), computed once. */
  asArray: SchemaNode | null | undefined = undefined;
  asObject: SchemaNode | null | undefined = undefined;
}

/** What is wrong, and where under the value checked. */
export interface SchemaIssue {
  readonly message: string;
  readonly path: (string | number)[];
}

/** Compiles a JSON Schema (draft 2020-12 or 7, as converters emit them). */
export function compileSchema(root: Json): SchemaNode {
  const cache = new Map<unknown, SchemaNode>();
  const resolve = (ref: string): unknown => {
    if (!ref.startsWith('#')) return true; // an external reference: not checked early
    let at: unknown = root;
    for (const raw of ref.slice(1).split('/').slice(1)) {
      const part = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
      at = at !== null && typeof at === 'object' ? (at as Json)[part] : undefined;
    }
    return at ?? true;
  };
  const compile = (schema: unknown): SchemaNode => {
    if (schema !== null && typeof schema === 'object' && typeof (schema as Json).$ref === 'string') {
      const { $ref, ...rest } = schema as Json;
      const target = resolve($ref as string);
      if (Object.keys(rest).every((k) => k === '$defs' || k === 'definitions' || k === '$schema')) {
        return compile(target);
      }
      return compile({ allOf: [target, rest] });
    }
    const known = cache.get(schema);
    if (known !== undefined) return known;
    const node = new SchemaNode();
    cache.set(schema, node); // before the members: recursive references find it
    if (schema === false) node.types = 0;
    if (schema === null || typeof schema !== 'object') return node;
    const s = schema as Json;
    if (typeof s.type === 'string') node.types = TYPE_BITS[s.type] ?? ALL;
    else if (Array.isArray(s.type)) node.types = s.type.reduce((bits: number, t) => bits | (TYPE_BITS[t] ?? 0), 0);
    if (isObject(s.properties)) {
      node.properties = new Map(Object.entries(s.properties).map(([k, v]) => [k, compile(v)]));
    }
    if (Array.isArray(s.required)) node.required = s.required.filter((k) => typeof k === 'string');
    if (s.additionalProperties !== undefined && s.additionalProperties !== true) {
      node.additional = compile(s.additionalProperties);
    }
    if (Array.isArray(s.prefixItems)) {
      node.prefix = s.prefixItems.map(compile);
      if (s.items !== undefined && s.items !== true) node.items = compile(s.items);
    } else if (Array.isArray(s.items)) {
      node.prefix = s.items.map(compile); // draft 7 tuples
      if (s.additionalItems !== undefined && s.additionalItems !== true) node.items = compile(s.additionalItems);
    } else if (s.items !== undefined && s.items !== true) node.items = compile(s.items);
    if (Array.isArray(s.enum)) node.enumValues = s.enum;
    if ('const' in s) {
      node.hasConst = true;
      node.constValue = s.const;
    }
    node.minimum = num(s.minimum, -Infinity);
    node.maximum = num(s.maximum, Infinity);
    // Draft 4's boolean exclusive bounds are not emitted by current converters: only the numeric form.
    node.exclusiveMinimum = num(s.exclusiveMinimum, -Infinity);
    node.exclusiveMaximum = num(s.exclusiveMaximum, Infinity);
    node.multipleOf = num(s.multipleOf, 0);
    node.minLength = num(s.minLength, 0);
    node.maxLength = num(s.maxLength, Infinity);
    if (typeof s.pattern === 'string') node.pattern = regex(s.pattern);
    node.minItems = num(s.minItems, 0);
    node.maxItems = num(s.maxItems, Infinity);
    node.minProperties = num(s.minProperties, 0);
    node.maxProperties = num(s.maxProperties, Infinity);
    if (Array.isArray(s.anyOf)) node.anyOf = s.anyOf.map(compile);
    if (Array.isArray(s.oneOf)) node.oneOf = s.oneOf.map(compile);
    if (Array.isArray(s.allOf)) node.allOf = s.allOf.map(compile);
    if (s.not !== undefined) node.not = compile(s.not);
    if (isObject(s.patternProperties)) {
      node.patterns = Object.entries(s.patternProperties).flatMap(([p, v]) => {
        const r = regex(p);
        return r === null ? [] : [[r, compile(v)] as [RegExp, SchemaNode]];
      });
    }
    node.whole = node.anyOf !== null || node.oneOf !== null || node.allOf !== null || node.not !== null;
    node.whole ||= node.patterns !== null;
    return node;
  };
  return compile(root);
}

function isObject(value: unknown): value is Json {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function num(value: unknown, otherwise: number): number {
  return typeof value === 'number' ? value : otherwise;
}

function regex(source: string): RegExp | null {
  try {
    return new RegExp(source, 'u');
  } catch {
    return null; // a pattern JavaScript cannot read is left to the schema's own validate()
  }
}

/**
 * The node a container opens into: `node` itself, or for a union the one branch that accepts this kind of
 * container (then its members can be checked one by one), else `node` checked whole at the end.
 */
export function openAs(node: SchemaNode, isArray: boolean): SchemaNode {
  const cached = isArray ? node.asArray : node.asObject;
  if (cached !== undefined) return cached ?? node;
  let found: SchemaNode | null = null;
  const branches =
    node.allOf === null && node.not === null && node.patterns === null ? (node.anyOf ?? node.oneOf) : null;
  if (branches !== null && (node.anyOf === null || node.oneOf === null) && node.types & (isArray ? ARRAY : OBJECT)) {
    const kind = isArray ? ARRAY : OBJECT;
    const matching = branches.filter((b) => (b.types & kind) !== 0);
    const only = matching.length === 1 ? matching[0]! : null;
    // The branch is the node only if the union node itself constrains nothing else.
    if (only !== null && !only.whole && alone(node)) found = only;
  }
  if (isArray) node.asArray = found;
  else node.asObject = found;
  return found ?? node;
}

/** A node with nothing but its union (and a type) to check. */
function alone(node: SchemaNode): boolean {
  return (
    node.properties === null &&
    node.required === null &&
    node.additional === null &&
    node.prefix === null &&
    node.items === null &&
    node.enumValues === null &&
    !node.hasConst &&
    node.minItems === 0 &&
    node.maxItems === Infinity &&
    node.minProperties === 0 &&
    node.maxProperties === Infinity
  );
}

/** The node of an object's member. */
export function memberNode(node: SchemaNode, key: string): SchemaNode | null {
  const own = node.properties?.get(key);
  return own !== undefined ? own : node.additional;
}

/** The node of an array's element. */
export function elementNode(node: SchemaNode, index: number): SchemaNode | null {
  const prefix = node.prefix;
  return prefix !== null && index < prefix.length ? prefix[index]! : node.items;
}

function typeBit(value: unknown): number {
  switch (typeof value) {
    case 'string':
      return STRING;
    case 'number':
      return Number.isInteger(value) ? INTEGER : NUMBER;
    case 'bigint':
      return INTEGER;
    case 'boolean':
      return BOOLEAN;
    default:
      return value === null ? NULL : Array.isArray(value) ? ARRAY : OBJECT;
  }
}

const TYPE_NAMES = ['null', 'boolean', 'integer', 'number', 'string', 'array', 'object'];

function typeNames(bits: number): string {
  const names = TYPE_NAMES.filter((_, i) => bits & (1 << i));
  if (names.includes('number')) names.splice(names.indexOf('integer'), 1);
  return names.length === 0 ? 'nothing' : names.join(' or ');
}

/**
 * The value's own keywords (`shallow`: a container's members were checked already, unless the node is checked
 * whole), or everything below it too. Returns the first issue, or null.
 */
export function check(
  node: SchemaNode,
  value: unknown,
  shallow: boolean,
  path: (string | number)[],
): SchemaIssue | null {
  const bit = typeBit(value);
  const fail = (message: string): SchemaIssue => ({ message, path });
  if ((node.types & bit) === 0) return fail(`expected ${typeNames(node.types)}, got ${TYPE_NAMES[Math.log2(bit)]}`);
  if (node.enumValues !== null && !node.enumValues.some((e) => equal(e, value))) {
    return fail(`expected one of ${node.enumValues.map((e) => JSON.stringify(e)).join(', ')}`);
  }
  if (node.hasConst && !equal(node.constValue, value)) return fail(`expected ${JSON.stringify(node.constValue)}`);
  if (bit === STRING) {
    const s = value as string;
    if (s.length < node.minLength || s.length > node.maxLength) {
      const length = [...s].length; // JSON Schema counts code points
      if (length < node.minLength) return fail(`expected at least ${node.minLength} characters`);
      if (length > node.maxLength) return fail(`expected at most ${node.maxLength} characters`);
    }
    if (node.pattern !== null && !node.pattern.test(s)) return fail(`expected to match /${node.pattern.source}/`);
  } else if (bit === INTEGER || bit === NUMBER) {
    const n = Number(value);
    if (n < node.minimum) return fail(`expected at least ${node.minimum}`);
    if (n > node.maximum) return fail(`expected at most ${node.maximum}`);
    if (n <= node.exclusiveMinimum) return fail(`expected more than ${node.exclusiveMinimum}`);
    if (n >= node.exclusiveMaximum) return fail(`expected less than ${node.exclusiveMaximum}`);
    if (node.multipleOf > 0 && !Number.isInteger(n / node.multipleOf))
      return fail(`expected a multiple of ${node.multipleOf}`);
  } else if (bit === ARRAY) {
    const array = value as readonly unknown[];
    if (array.length < node.minItems) return fail(`expected at least ${node.minItems} items`);
    if (array.length > node.maxItems) return fail(`expected at most ${node.maxItems} items`);
    if (!shallow || node.whole) {
      for (let i = 0; i < array.length; i++) {
        const child = elementNode(node, i);
        const issue = child === null ? null : check(child, array[i], false, [...path, i]);
        if (issue !== null) return issue;
      }
    }
  } else if (bit === OBJECT) {
    const object = value as Json;
    const required = node.required;
    if (required !== null) {
      for (let i = 0; i < required.length; i++) {
        if (!Object.hasOwn(object, required[i]!)) return fail(`missing required member "${required[i]}"`);
      }
    }
    const checkMembers = !shallow || node.whole;
    if (checkMembers || node.additional !== null || node.minProperties > 0 || node.maxProperties < Infinity) {
      const keys = Object.keys(object);
      if (keys.length < node.minProperties) return fail(`expected at least ${node.minProperties} members`);
      if (keys.length > node.maxProperties) return fail(`expected at most ${node.maxProperties} members`);
      for (let i = 0; i < keys.length; i++) {
        const key = keys[i]!;
        const known = node.properties?.has(key) === true;
        const patterns = node.patterns?.filter(([r]) => r.test(key)) ?? [];
        if (node.additional !== null && node.additional.types === 0 && !known && patterns.length === 0) {
          return fail(`unexpected member "${key}"`);
        }
        if (!checkMembers) continue;
        const child = known ? node.properties!.get(key)! : patterns.length === 0 ? node.additional : null;
        let issue = child === null ? null : check(child, object[key], false, [...path, key]);
        for (let p = 0; issue === null && p < patterns.length; p++) {
          issue = check(patterns[p]![1], object[key], false, [...path, key]);
        }
        if (issue !== null) return issue;
      }
    }
  }
  return node.whole ? combinators(node, value, path) : null;
}

function combinators(node: SchemaNode, value: unknown, path: (string | number)[]): SchemaIssue | null {
  if (node.allOf !== null) {
    for (const branch of node.allOf) {
      const issue = check(branch, value, false, path);
      if (issue !== null) return issue;
    }
  }
  if (node.anyOf !== null && !node.anyOf.some((b) => check(b, value, false, path) === null)) {
    return { message: 'matches none of the alternatives (anyOf)', path };
  }
  if (node.oneOf !== null) {
    const matches = node.oneOf.filter((b) => check(b, value, false, path) === null).length;
    if (matches !== 1) return { message: `matches ${matches} of the alternatives (oneOf: exactly 1)`, path };
  }
  if (node.not !== null && check(node.not, value, false, path) === null) {
    return { message: 'matches the schema under "not"', path };
  }
  return null;
}

/** JSON equality (enum, const): members in any order. */
function equal(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a === 'bigint' || typeof b === 'bigint') return Number(a) === Number(b);
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  return ka.every((k) => Object.hasOwn(b, k) && equal((a as Json)[k], (b as Json)[k]));
}
