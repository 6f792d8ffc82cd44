// The order in which a stream delivers nodes with order: 'arrival': each as its last byte arrives, so children
// before their parent, else document order.
// @ts-expect-error Location and normalizedPath are @internal: stripped from the shipped .d.ts, tested all the same.
import { Location, normalizedPath } from '../../dist/query/normalized_path.js';

/** Each node's place in a post-order walk (children first, in the order JSON.stringify writes them). */
export function arrivalRanks(doc: unknown): Map<string, number> {
  const ranks = new Map<string, number>();
  const walk = (value: unknown, at: unknown) => {
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) walk(value[i], new Location(at, i));
    } else if (typeof value === 'object' && value !== null) {
      for (const [k, v] of Object.entries(value)) walk(v, new Location(at, k));
    }
    ranks.set(normalizedPath(at), ranks.size);
  };
  walk(doc, null);
  return ranks;
}
