// Linear paths, as openJson (doc.get(), doc.iterate()) and `sluice get` take them: RFC 9535 queries
// (js/query/parser.ts reads them) of child segments of one name, wildcard or non-negative index each. The parsers'
// paths take more (js/query/lower.ts); openJson's cursor and plans work on these steps.
import { misuse, type ApiName } from '../validate.js';
import { parseQuery } from '../query/parser.js';

/** @internal One step: a member name, an array index, or `null` for the wildcard (`.*`, `[*]`). */
export type PathStep = string | number | null;

/** @internal What a linear path is made of, as error messages list it. */
export const LINEAR_PATHS = `$, .name, ['name'], ["name"], [*], .*, [N] with N >= 0`;

/**
 * @internal The steps of `path` (named `subject` in messages), which `taker` (`openJson`, `sluice get`) reads.
 * @throws {TypeError} for an invalid query (parseQuery's positioned message) and for one beyond the linear paths:
 * `doc.get(): path "$..a" at 1: openJson takes linear paths ($, .name, ...), not a descendant segment`.
 */
export function checkPath(api: ApiName, subject: string, path: string, taker = 'openJson'): PathStep[] {
  const query = parseQuery(path, api, subject);
  const steps: PathStep[] = [];
  for (const segment of query.segments) {
    const s = segment.selectors[0]!;
    let what: string | null = null;
    if (segment.descendant) what = 'a descendant segment';
    else if (segment.selectors.length > 1) what = 'a union';
    else if (s.kind === 'name') steps.push(s.name);
    else if (s.kind === 'wildcard') steps.push(null);
    else if (s.kind === 'index' && s.index >= 0) steps.push(s.index);
    else what = s.kind === 'index' ? 'a negative index' : `a ${s.kind} selector`;
    if (what !== null) {
      const at = segment.descendant || segment.selectors.length > 1 ? segment.at : s.at;
      throw misuse(
        api,
        `${subject} ${JSON.stringify(path)} at ${at}: ${taker} takes linear paths (${LINEAR_PATHS}), not ${what}`,
      );
    }
  }
  return steps;
}

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
