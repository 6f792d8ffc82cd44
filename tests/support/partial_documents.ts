// Documents for the partial-JSON suites: hand-written ones that put every token kind at every place a delta can
// cut it, and seeded random ones (random_json.mjs). All are valid JSON.
import { createRng, randomDocument } from './random_json.mjs';

export const HAND_WRITTEN: readonly string[] = [
  '{"title":"Hello, world","tags":["a","b"],"n":879.68,"ok":true,"none":null}',
  ' \t\n{ "a" : [ 1 , -2.5e+3 , 0 , -0 , 1E2 , 0.000 , 123456789012345678901234567890 ] ,\r\n "b" : { } , "c" : [ ] } ',
  '["\\"\\\\\\/\\b\\f\\n\\r\\t","\\u0041\\u00e9\\u4E2D","\\ud834\\udd1e","\\uD834","\\uDD1E\\uD834","\\ud834\\n",' +
    '"\\ud834\\ud834\\udd1e","\\ud834x","é中😀𝄞","\\u2028\u2028"]',
  '{"__proto__":{"x":1},"a":1,"a":[2],"1":"one","0":"zero","constructor":"c"}',
  '[[[[[[[[[[{"deep":[[[]]]}]]]]]]]]]]',
  '"a root string with \\u00e9scapes and 😀"',
  '-12.5e-3',
  '0',
  'true',
  'false',
  'null',
  '"\\uD83D"',
  '\ufeff{"bom":true}',
  '[true,false,null,true,"x",1,{"y":[false]}]',
  '{"nested":{"deeper":{"deepest":"value","list":[1,[2,[3,[4]]]]}},"after":"x"}',
  '[1e400,-1e400,5e-324,1e-400,9007199254740993,-9223372036854775808,0E-0,-0.0e0]',
];

export function randomDocuments(count: number, seed: number, budget = 40): string[] {
  const documents: string[] = [];
  for (let i = 0; i < count; i++) documents.push(randomDocument(createRng(seed + i), { budget, maxDepth: 6 }));
  return documents;
}

/** A document whose arrays grow past the length at which snapshots become views. */
export function longArrays(length: number): string {
  const numbers = Array.from({ length }, (_, i) => String(((i * 7) % 1000) - 300)).join(',');
  const records = Array.from({ length }, (_, i) => `{"id":${i},"name":"n${i}","tags":["t${i % 5}"]}`).join(',');
  return `{"numbers":[${numbers}],"records":[${records}],"nested":[[${numbers}]],"tail":"end"}`;
}

/**
 * A document whose objects grow past the member count at which snapshots become views, with index keys (listed
 * first by plain objects) and `__proto__`; `duplicates` adds keys written again.
 */
export function wideObjects(count: number, duplicates = false): string {
  const members = Array.from({ length: count }, (_, i) => {
    const key = i % 10 === 3 ? String(count - i) : i === 5 ? '__proto__' : `k${i}`;
    const value = i % 3 === 0 ? `{"id":${i},"tags":["t${i % 5}"]}` : i % 3 === 1 ? `"v${i}"` : String(i * 7);
    return `${JSON.stringify(key)}:${value}`;
  });
  if (duplicates) members.push('"k1":"again"', '"k1":{"twice":true}', '"k4":[4]', '"k8":"x"', '"k8":"y"');
  const all = members.join(',');
  return `{"wide":{${all}},"nested":[{"inner":{${all}}}],"tail":"end"}`;
}

/** Whether a JSON text has an object with a key twice (JSON.parse keeps the last; a snapshot may then change type). */
export function hasDuplicateKeys(text: string): boolean {
  // Strings first, so brackets inside them are skipped; a string followed by ':' is a key of the innermost object.
  const keys: Set<string>[] = [];
  for (const match of text.matchAll(/"(?:[^"\\]|\\.)*"|[{}[\]]/g)) {
    const token = match[0];
    if (token === '{' || token === '[') keys.push(new Set());
    else if (token === '}' || token === ']') keys.pop();
    else {
      const colon = /[ \t\n\r]*:/y;
      colon.lastIndex = match.index! + token.length;
      if (!colon.test(text)) continue;
      const key = JSON.parse(token) as string;
      const seen = keys[keys.length - 1]!;
      if (seen.has(key)) return true;
      seen.add(key);
    }
  }
  return false;
}
