// Linear paths as steps: what openJson's cursor and plans work on (js/open_json/open_json_query.ts reads them
// out of RFC 9535 queries), and their canonical text for the native parser.

/** @internal One step: a member name, an array index, or `null` for the wildcard (`.*`, `[*]`). */
export type PathStep = string | number | null;

/**
 * @internal The path's steps as text the native parser reads back to the same steps: `$`, then `[*]`, `[N]` or
 * `["name"]` (JSON.stringify writes a lone surrogate as a `\u` escape, so the text is always well-formed).
 */
export function canonicalPath(steps: readonly PathStep[]): string {
  let out = '$';
  for (let k = 0; k < steps.length; k++) {
    const step = steps[k]!;
    if (step === null) out += '[*]';
    else if (typeof step === 'number') out += `[${step}]`;
    else out += `[${JSON.stringify(step)}]`;
  }
  return out;
}
