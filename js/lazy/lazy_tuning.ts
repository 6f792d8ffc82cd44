// The thresholds of lazyParse(): when a member container becomes a proxy rather than a parsed value, when reads
// turn into batches, and when an object's keys go into a Map. lazyTuning is mutable for the tests only.
/**
 * The thresholds that decide between a proxy and a parse, and between native lookups and a key
 * map. Mutable for the tests only: tiny values make small random documents take the proxy, batching and map
 * paths that real documents take.
 */
export const lazyTuning = {
  /** Containers this long and longer become proxies when read one by one; shorter ones are parsed at once. */
  proxyMinBytes: 1024,
  /**
   * The same for the elements of an array whose elements are all objects or arrays (rows, records, polygon
   * rings): listing such an array costs little (its members come from the container table), and a reader that
   * touches one member of each row pays for a row parsed whole far more than for a proxy. Reading rows densely in
   * order parses them whole anyway (ArrayHandler.materialise).
   */
  rowProxyMinBytes: 256,
  /** Native key lookups before an object decodes all its keys into a Map instead. */
  findLimit: 16,
  /**
   * A member of an object that would become a proxy but has at most this many members, at most one of them long
   * (a proxy), and at most proxyMinBytes / 8 bytes of text in the others, is handed out as a frozen plain object or
   * array instead: a "spine" (see spineOf). 0 turns spines off.
   */
  spineMaxMembers: 8,
  /**
   * Native bytes the indexes of documents may hold together (residency.ts), unless one document alone needs more;
   * 0 keeps only the document in use.
   */
  residentBudget: 64 * 1024 * 1024,
};
/**
 * When an object is read densely, its member containers up to this long are parsed with their neighbours
 * instead. (An array read in order keeps long elements lazy: reading records one after the other says nothing
 * about how much of each record is read.)
 */
export const BULK_MAX_BYTES = 32 * 1024;
/**
 * Text per batch. Bounds what a read-ahead may waste, and keeps the decoded string out of V8's large-object space
 * (over 128 KiB, or 64 Ki two-byte characters), whose fresh pages cost far more than the decoding.
 */
export const RUN_MAX_BYTES = 48 * 1024;
/** Array read-ahead stops growing here (members per batch). */
export const MAX_GROUP = 4096;
