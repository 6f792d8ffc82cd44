// The partial parser's switches (tree.ts re-exports them; deep.ts reads them too).
/**
 * Switches for bench:partial, which measures what each costs (docs/partial.md); the defaults are what users get.
 * `viewMinLength`: arrays with this many elements and more are published as views. A frozen copy of 64 elements
 * costs about a sixth of a token's other work, and its garbage more: the 200 KB corpus, whose open array reaches
 * 150 elements, costs about a fifth more per token with views from 128 than from 64. `freeze`: whether snapshots
 * are frozen. `objectViewMinKeys`: objects with this many members and more are published as views (as arrays, so
 * that a push into a wide object costs O(1), not O(members)). `lazyDepth`: a push this deep or deeper shows every level but
 * the root through snapshots made when read (deep.ts), so that a push deep down costs O(1), not O(depth). `freezeOpen` (with `freeze`): whether the snapshots of containers still open are frozen too, or only
 * finished ones (docs/partial.md, "Frozen snapshots": freezing the open ones makes a token cost half as much again).
 * `flatten`: whether finished strings are made flat (flatten()).
 */
export const treeTuning = {
  freeze: true,
  viewMinLength: 64,
  objectViewMinKeys: 64,
  lazyDepth: 16,
  freezeOpen: false,
  flatten: true,
};
