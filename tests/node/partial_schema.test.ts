// The `schema` option of createPartialParser and partialJson: each value checked once when it ends (zod 4 offers a
// JSON Schema through ~standard.jsonSchema), a violation thrown at the byte that ends the offending value and no
// earlier, none on a valid document at any prefix, and end() returning the schema's own output.
import * as v from 'valibot';
import { describe, expect, test } from 'vitest';
import * as z from 'zod';
import { createPartialParser, JsonSchemaError, partialJson } from '../../dist/index.js';
import { asyncIterableOf } from '../support/sources.js';

const Item = z.object({ id: z.number().int().min(0), kind: z.enum(['a', 'b']), note: z.string().max(5).optional() });
const Doc = z.object({
  title: z.string(),
  items: z.array(Item),
  meta: z.object({ ok: z.boolean(), by: z.union([z.string(), z.null()]) }).nullable(),
  count: z.number().transform((n) => n * 2),
});

const valid = JSON.stringify({
  title: 'héllo',
  items: [
    { id: 1, kind: 'a' },
    { id: 22, kind: 'b', note: 'hi' },
  ],
  meta: { ok: true, by: null },
  count: 21,
});

/** Pushes text[0 .. cut) in pieces of 3 characters; returns the error, or null. */
function pushPrefix(schema: z.ZodType, text: string, cut: number): unknown {
  const parser = createPartialParser({ schema });
  try {
    for (let i = 0; i < cut; i += 3) parser.push(text.slice(i, Math.min(cut, i + 3)));
    return null;
  } catch (error) {
    return error;
  }
}

/** The byte offset just before text[at]. */
const offsetOf = (text: string, at: number) => new TextEncoder().encode(text.slice(0, at)).length;

describe('schema: zod 4 (checked as values end)', () => {
  test('no violation at any prefix of a valid document; end() gives the transformed output', () => {
    for (let cut = 0; cut <= valid.length; cut++) expect(pushPrefix(Doc, valid, cut)).toBe(null);
    const parser = createPartialParser({ schema: Doc });
    parser.push(valid);
    expect(parser.end()).toEqual({ ...JSON.parse(valid), count: 42 });
  });

  const cases: [string, string, string, (string | number)[]][] = [
    // document, the character that ends the offending value (its first occurrence after the marker), marker
    ['{"title":"t","items":[{"id":1,"kind":"c"}],"meta":null,"count":1}', '"', '"c', ['items', 0, 'kind']],
    ['{"title":"t","items":[{"id":-1,"kind":"a"}],"meta":null,"count":1}', ',', '-1', ['items', 0, 'id']],
    ['{"title":"t","items":[{"id":1}],"meta":null,"count":1}', '}', '{"id":1', ['items', 0]],
    ['{"title":"t","items":[],"meta":{"ok":1,"by":null},"count":1}', ',', '"ok":1', ['meta', 'ok']],
    ['{"title":"t","items":[],"meta":{"ok":true,"by":5},"count":1}', '}', '"by":5', ['meta', 'by']],
    ['{"title":"t","items":[],"meta":null,"count":true}', 'e', 'tru', ['count']],
    [
      '{"title":"t","items":[{"id":1,"kind":"a","note":"toolong"}],"meta":null,"count":1}',
      '"',
      'toolong',
      ['items', 0, 'note'],
    ],
  ];
  test.each(cases)('%s fails at the byte that ends the value', (doc, closer, marker, path) => {
    const at = doc.indexOf(closer, doc.indexOf(marker) + marker.length - (closer === 'e' ? 1 : 0));
    for (let cut = 0; cut <= at; cut++) expect(pushPrefix(Doc, doc, cut)).toBe(null);
    const error = pushPrefix(Doc, doc, at + 1) as JsonSchemaError;
    expect(error).toBeInstanceOf(JsonSchemaError);
    expect(error.offset).toBe(offsetOf(doc, at));
    expect(error.path).toEqual(path);
    expect(error.message).toContain('$.');
  });

  test('value keeps the last good snapshot; later calls throw the same error', () => {
    const parser = createPartialParser({ schema: Doc });
    const before = parser.push('{"title":"t","items":[{"id":1,"kind":"');
    expect(() => parser.push('c"')).toThrow(JsonSchemaError);
    expect(parser.value).toBe(before);
    expect(() => parser.end()).toThrow(JsonSchemaError);
  });
});

describe('schema: without a JSON Schema (valibot 1)', () => {
  const Schema = v.object({
    a: v.string(),
    n: v.pipe(
      v.number(),
      v.transform((n) => n + 1),
    ),
  });
  test('only end() validates, with the schema output', () => {
    const parser = createPartialParser({ schema: Schema });
    expect(parser.push('{"a":1,')).toEqual({ a: 1 });
    expect(() => parser.push('"n":1}')).not.toThrow();
    expect(() => parser.end()).toThrow(JsonSchemaError);
    const good = createPartialParser({ schema: Schema });
    good.push('{"a":"x","n":1}');
    expect(good.end()).toEqual({ a: 'x', n: 2 });
  });
});

describe('schema: partialJson', () => {
  test('the last snapshot is the output; an async schema is awaited', async () => {
    const chunks = [valid.slice(0, 20), valid.slice(20)];
    const out: unknown[] = [];
    for await (const s of partialJson(asyncIterableOf(chunks), { schema: Doc })) out.push(s);
    expect(out.at(-1)).toEqual({ ...JSON.parse(valid), count: 42 });
    const Async = z.object({ a: z.string() }).refine(async () => true);
    const got: unknown[] = [];
    for await (const s of partialJson('{"a":"x"}', { schema: Async })) got.push(s);
    expect(got.at(-1)).toEqual({ a: 'x' });
    const sync = createPartialParser({ schema: Async });
    sync.push('{"a":"x"}');
    expect(() => sync.end()).toThrow(TypeError);
  });

  test('a schema that is not a Standard Schema is a TypeError', () => {
    expect(() => createPartialParser({ schema: {} as never })).toThrow(/options\.schema must be a Standard Schema/);
  });
});
