// The binding contract of the lazy index, JS half (HACKING.md, "The binding contract"): the lazy_out record and the
// member and container records, each under the name its C++ half (wasm/lazy_contract.h) gives it in lower case;
// tests/node/lazy_contract.test.ts compares the two. Nothing here is exported to users.

// lazy_out, as u32 indices from its start.
/** @internal */
export const OUT_STATUS = 0;
/** @internal */
export const OUT_ERROR_BYTE = 1;
/** @internal */
export const OUT_COUNT = 2;
/** @internal */
export const OUT_ROOT_START = 4;
/** @internal */
export const OUT_ROOT_END = 5;
/** @internal */
export const OUT_ROOT_CONTAINER = 6;
// lazy_out, as f64 indices from its start.
/** @internal */
export const OUT_ERROR_OFFSET = 4;
/** @internal */
export const OUT_ERROR_LINE = 5;
/** @internal */
export const OUT_ERROR_COLUMN = 6;
/** @internal Its size. */
export const OUT_BYTES = 56;

// Member record (lazy_child): 6 x u32.
/** @internal */
export const CHILD_WORDS = 6;
/** @internal */
export const CHILD_VALUE_START = 0;
/** @internal */
export const CHILD_VALUE_END = 1;
/** @internal */
export const CHILD_CONTAINER = 2;
/** @internal */
export const CHILD_KEY_START = 3;
/** @internal */
export const CHILD_KEY_END = 4;
/** @internal */
export const CHILD_FIRST_BYTE = 5;
/** @internal A member that is not a container. */
export const NO_CONTAINER = 0xffff_ffff;

// Container record (lazy_container): 3 x u32.
/** @internal */
export const CONTAINER_WORDS = 3;
/** @internal */
export const CONTAINER_START = 0;
/** @internal */
export const CONTAINER_END = 1;
/** @internal */
export const CONTAINER_NEXT = 2;
