// The rows the rows worker streams, shared with the test that computes the expected bytes: every kind of JSON
// value, escapes, non-ASCII of 2, 3 and 4 bytes, and numbers JSON.stringify writes in different shapes.
const WORDS = ['edge', 'stream', 'é', '中文', '😀', 'quote "q"', 'back\\slash', 'tab\t', 'line\nbreak', '\u2028'];

export function row(id) {
  return {
    id,
    title: `${WORDS[id % WORDS.length]} ${WORDS[(id * 7) % WORDS.length]} #${id}`,
    score: id % 11 === 0 ? -id / 7 : id * 1.5,
    big: id % 13 === 0 ? 1e21 * id : id,
    published: id % 2 === 0,
    tags: id % 5 === 0 ? [] : [WORDS[id % 3], id],
    author: id % 17 === 0 ? null : { name: `author ${id % 97}`, id: id % 97 },
  };
}
