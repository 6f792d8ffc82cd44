// A snapshot sent as what changed since the one before. Whole snapshots would make the bytes sent grow with the
// square of the arguments' length; sluice's snapshots share every subtree that did not change (the same object,
// ===), so the changes are found by walking only the subtrees that are new. The page applies them the same way:
// its snapshots share unchanged subtrees too, which is what lets it keep a day's card.

const isContainer = (value) => typeof value === 'object' && value !== null;

/**
 * The changes that turn snapshot `before` into `after` (`before` undefined: the whole value): `[path, value]`, or
 * `[path, text, 'append']` for a string that grew (a string being written grows at its end: sent whole each
 * time, a long one would cost the square of its length).
 */
export function changes(before, after, path = [], out = []) {
  if (before === after) return out;
  if (typeof before === 'string' && typeof after === 'string' && after.startsWith(before)) {
    out.push([path, after.slice(before.length), 'append']);
  } else if (!isContainer(before) || !isContainer(after) || Array.isArray(before) !== Array.isArray(after)) {
    out.push([path, after]);
  } else if (Array.isArray(after)) {
    // A partial array only grows, and only its last element may still change: the ones before it are final.
    for (let i = Math.max(0, before.length - 1); i < after.length; i++) changes(before[i], after[i], [...path, i], out);
  } else {
    // Any member may change (a key written twice replaces its value), so each is compared, by identity.
    for (const key of Object.keys(after)) changes(before[key], after[key], [...path, key], out);
  }
  return out;
}

function setIn(node, path, at, value, append) {
  if (at === path.length) return append ? node + value : value;
  const copy = Array.isArray(node) ? node.slice() : { ...node };
  copy[path[at]] = setIn(node?.[path[at]], path, at + 1, value, append);
  return copy;
}

/** The next snapshot: `root` with the changes applied, copied along their paths only. */
export function applyChanges(root, list) {
  for (const [path, value, how] of list) root = setIn(root, path, 0, value, how === 'append');
  return root;
}
