// Rows for the encoder tests, shared by the page and the Service Worker: escapes, non-ASCII, every JSON type,
// numbers JSON.stringify writes in different shapes, and values it omits or turns into null.
export function row(id) {
  return {
    id,
    title: `row ${id} é 中文 😀 "q" \\ \n`,
    score: id % 7 === 0 ? -id / 3 : id * 0.5,
    nan: id % 11 === 0 ? NaN : id,
    skipped: undefined,
    tags: [id % 2 === 0, null, `t${id % 5}`],
    when: new Date(Date.UTC(2024, 0, 1, 0, 0, id % 60)),
  };
}

/** An async generator, like a database cursor; a macrotask every 1000 rows, like a real one waiting for I/O. */
export async function* rows(count, gate) {
  for (let id = 1; id <= count; id++) {
    if (gate && id === count >> 1) await gate();
    else if (id % 1000 === 0) await new Promise((resolve) => setTimeout(resolve, 0));
    yield row(id);
  }
}

export function expectedText(count) {
  return JSON.stringify({ _embedded: { articles: Array.from({ length: count }, (_, i) => row(i + 1)) }, total: count });
}
