// The command line of every benchmark's main.mjs: its options parsed, or the usage printed (--help, exit 0), or
// the parse error printed (exit 2).
export function readOptions(parse, usage) {
  let options;
  try {
    options = parse();
  } catch (error) {
    console.error(error.message);
    process.exit(2);
  }
  if (options.help) {
    console.log(usage);
    process.exit(0);
  }
  return options;
}
