// Every main.mjs's command line: `readFlags` reads argv by a table of flag rules; `log`, progress on stderr.

export const log = (line) => process.stderr.write(`${line}\n`);

/** `defaults`, then each flag by its rule in `flags` ('--name': (options, text, flag, fail) => ...). */
export function readFlags(usage, defaults, flags) {
  const options = { ...defaults };
  const argv = process.argv.slice(2);
  const fail = (message) => {
    console.error(`${message}\n${usage}`);
    process.exit(2);
  };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split(/=(.*)/s, 2);
    if (flag === '--help' || flag === '-h') {
      console.log(usage);
      process.exit(0);
    }
    const rule = flags[flag];
    if (!rule) fail(`unknown option ${argv[i]}`);
    rule(options, rule.takesNoValue ? undefined : (inline ?? argv[++i]), flag, fail);
  }
  return options;
}

export const set = (values) => Object.assign((options) => Object.assign(options, values), { takesNoValue: true });

const numeric = (key, ok, what) => (options, text, flag, fail) => {
  if (!ok(Number(text))) fail(`${flag} must be ${what}`);
  options[key] = Number(text);
};
export const integer = (key, min = 1) => numeric(key, (n) => Number.isInteger(n) && n >= min, `an integer >= ${min}`);
export const number = (key, zero = false) =>
  numeric(key, (n) => (zero ? n >= 0 : n > 0), `a number ${zero ? '>=' : '>'} 0`);

export const list =
  (key, known = null, map = (item) => item) =>
  (options, text, flag, fail) => {
    const items = (text ?? '').split(',').flatMap((item) => item.trim() || []);
    const unknown = known ? items.filter((item) => !known.includes(item)) : [];
    if (items.length === 0 || unknown.length)
      fail(`${flag}: unknown "${unknown.join(',')}" (known: ${known?.join(', ')})`);
    options[key] = items.map(map);
  };

export const only = (ids) => (options, text, flag, fail) => {
  list('only')(options, text, flag, fail);
  const unmatched = options.only.filter((part) => !ids.some((id) => id.includes(part.toLowerCase())));
  if (unmatched.length) fail(`${flag}: "${unmatched.join(',')}" matches none of ${ids.join(', ')}`);
};

export const text = (key) => (options, value, flag, fail) => {
  if (value === undefined) fail(`${flag} needs a value`);
  options[key] = value;
};

/** Whether --only selects `id` (all when it was not given); an `optIn` one only when --only names it whole. */
export const selected = (options, id, optIn = false) =>
  optIn
    ? (options.only?.some((part) => id === part.toLowerCase()) ?? false)
    : !options.only || options.only.some((part) => id.includes(part.toLowerCase()));
