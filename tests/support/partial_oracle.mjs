// The snapshot a prefix of a valid JSON text must give under the partial-JSON rules (issue 20), derived without
// the parser under test: the prefix is cut back to what the rules let it show, closed with the brackets still
// open, and handed to JSON.parse. Used by the partial suites and by bench:partial to count a library's wrong
// snapshots.
//
// The rules: a string shows its text up to its last complete character or escape (a high-surrogate escape only
// once the next character shows it is not followed by its low half); a number shows once a character after it
// ends it (numbers: 'partial': the longest prefix that is itself a number, once there is a digit); true, false
// and null once complete; an object member once its key is complete and its value has started (a string, an
// array, an object) or is complete; an array element once it has started the same way. Nothing else.

const NUMBER_PREFIX = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/;
const LITERALS = ['true', 'false', 'null'];

function isWhitespace(c) {
  return c === 32 || c === 9 || c === 10 || c === 13;
}

/**
 * The string starting after its opening quote at `i`: `{ closed: true, end }` (end just past the closing quote),
 * or `{ closed: false, cut }` where `cut` ends the part the rules show.
 */
function scanString(text, i) {
  const n = text.length;
  let cut = i;
  let heldAt = -1;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 34) return { closed: true, end: i + 1 };
    if (c !== 92) {
      heldAt = -1;
      i++;
      cut = i;
      continue;
    }
    if (i + 1 >= n) break;
    if (text[i + 1] !== 'u') {
      heldAt = -1;
      i += 2;
      cut = i;
      continue;
    }
    if (i + 6 > n) break;
    const unit = parseInt(text.slice(i + 2, i + 6), 16);
    const pairs = heldAt >= 0 && unit >= 0xdc00 && unit <= 0xdfff;
    heldAt = !pairs && unit >= 0xd800 && unit <= 0xdbff ? i : -1;
    i += 6;
    cut = i;
  }
  return { closed: false, cut: heldAt >= 0 ? heldAt : cut };
}

/**
 * What the partial-JSON rules show of `prefix` (complete UTF-16 characters of a valid JSON text): the value, or
 * undefined when nothing is shown yet. A prefix ending in the high half of a surrogate pair shows the text before
 * that half. Options: `numbers: 'complete' | 'partial'`; `ended`: the input ended there (as end() says), which
 * completes a number that is whole.
 */
export function expectedSnapshot(prefix, { numbers = 'complete', ended = false } = {}) {
  let text = prefix;
  const lastUnit = text.charCodeAt(text.length - 1);
  if (lastUnit >= 0xd800 && lastUnit <= 0xdbff) text = text.slice(0, -1);
  const from = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const n = text.length;
  const stack = [];
  const closers = () =>
    stack
      .map((open) => (open === '[' ? ']' : '}'))
      .reverse()
      .join('');
  // The last point the text can be cut and closed at: its end and the brackets open there.
  let safe = null;
  const mark = (end) => {
    safe = { end, closers: closers() };
  };
  const show = (body) => JSON.parse(body);
  const shown = () => (safe === null ? undefined : show(text.slice(from, safe.end) + safe.closers));
  const afterValue = () => (stack.length === 0 ? 'end' : 'after');
  let expect = 'value';
  let first = false;
  let i = from;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (isWhitespace(c)) {
      i++;
      continue;
    }
    const ch = text[i];
    if (expect === 'colon') {
      i++;
      expect = 'value';
    } else if (expect === 'after') {
      i++;
      if (ch === ',') {
        expect = stack[stack.length - 1] === '[' ? 'value' : 'key';
        first = false;
      } else {
        stack.pop();
        mark(i);
        expect = afterValue();
      }
    } else if (expect === 'key') {
      if (ch === '}' && first) {
        stack.pop();
        i++;
        mark(i);
        expect = afterValue();
        continue;
      }
      const string = scanString(text, i + 1);
      if (!string.closed) return shown();
      i = string.end;
      expect = 'colon';
    } else if (expect === 'value') {
      if (ch === ']' && first) {
        stack.pop();
        i++;
        mark(i);
        expect = afterValue();
      } else if (ch === '[' || ch === '{') {
        stack.push(ch);
        i++;
        mark(i);
        expect = ch === '[' ? 'value' : 'key';
        first = true;
        continue;
      } else if (ch === '"') {
        const string = scanString(text, i + 1);
        if (!string.closed) return show(text.slice(from, string.cut) + '"' + closers());
        i = string.end;
        mark(i);
        expect = afterValue();
      } else if (ch === '-' || (c >= 48 && c <= 57)) {
        let end = i + 1;
        while (end < n && /[0-9.eE+-]/.test(text[end])) end++;
        const valid = end === n ? (NUMBER_PREFIX.exec(text.slice(i))?.[0] ?? '') : '';
        if (end === n && !(ended && valid.length === end - i)) {
          // Nothing after it yet: it may go on.
          if (numbers === 'partial' && /\d/.test(valid)) return show(text.slice(from, i) + valid + closers());
          return shown();
        }
        i = end;
        mark(i);
        expect = afterValue();
      } else {
        const literal = LITERALS.find((word) => word[0] === ch);
        if (!text.startsWith(literal, i)) return shown();
        i += literal.length;
        mark(i);
        expect = afterValue();
      }
      first = false;
    } else {
      throw new Error(`expectedSnapshot: text after the root value at ${i}: not a prefix of valid JSON`);
    }
  }
  return shown();
}

/** The characters a byte prefix of UTF-8 text decodes to, without a sequence it cuts short. */
export function textOfBytes(bytes) {
  let end = bytes.length;
  for (let back = 1; back <= 3 && back <= bytes.length; back++) {
    const b = bytes[bytes.length - back];
    if ((b & 0xc0) === 0x80) continue;
    const length = b < 0x80 ? 1 : b < 0xe0 ? 2 : b < 0xf0 ? 3 : 4;
    if (length > back) end = bytes.length - back;
    break;
  }
  return new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes.subarray(0, end));
}
