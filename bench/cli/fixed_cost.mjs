// bench:cli's split of CPU time into what a command pays once and per byte: each command on one article, the 100 MB
// file and one twice as long, in interleaved fresh processes; the two long files' difference is 100 MB at full speed.
import { log } from '../harness/cli.mjs';
import { mdTable, median } from '../harness/stats.mjs';

/** Medians of `runs` interleaved rounds; `measure(command, file)` runs one fresh process (runner.c's result). */
export function measureFixedCost({ measure, commands, files, runs, node }) {
  const { one, single, double } = files;
  const cpu = new Map();
  const add = (key, result) => {
    if (result.code !== 0) throw new Error(`bench:cli: ${key} exited with ${result.code}`);
    cpu.set(key, [...(cpu.get(key) ?? []), result.cpuMs]);
  };
  for (let round = 0; round < runs; round++) {
    add('node', measure({ argv: () => [node, '-e', '0'] }, one));
    for (const command of commands) {
      add(`${command.id}/one`, measure(command, one));
      add(`${command.id}/single`, measure(command, single.file));
      add(`${command.id}/double`, measure(command, double.file));
    }
    log(`fixed cost: round ${round + 1}/${runs}`);
  }
  const med = (key) => median(cpu.get(key));
  return {
    runs,
    nodeMs: med('node'),
    singleLabel: single.label,
    doubleLabel: double.label,
    rows: commands.map(({ id, label, own = false }) => {
      const [oneMs, singleMs, doubleMs] = ['one', 'single', 'double'].map((file) => med(`${id}/${file}`));
      const perFileMs = doubleMs - singleMs;
      // (double - single) bytes in (double - single) ms: the rate once started and compiled.
      const steadyMBps = (double.bytes - single.bytes) / 1e3 / perFileMs;
      const fixedMs = singleMs - perFileMs * (single.bytes / (double.bytes - single.bytes));
      return { id, label, own, oneMs, singleMs, doubleMs, steadyMBps, fixedMs };
    }),
  };
}

export function fixedCostMarkdown(split) {
  const ms = (x) => `${Math.round(x)} ms`;
  const { singleLabel: single, doubleLabel: double } = split;
  const rows = split.rows.map((r) => [
    r.own ? `**${r.label}**` : r.label,
    ...[r.oneMs, r.singleMs, r.doubleMs].map(ms),
    `${Math.round(r.steadyMBps)} MB/s`,
    ms(r.fixedMs),
  ]);
  return [
    `Where the CPU time goes: medians of ${split.runs} interleaved fresh processes (\`node -e 0\`: ${ms(split.nodeMs)}). ` +
      `Per byte: the ${double} file's time less the ${single}'s, as MB/s. Fixed: the ${single} run less its bytes at ` +
      "that rate (the process's start and, for sluice, V8's compile of the scan and the reads run before it).",
    '',
    ...mdTable(['command', '1 article', single, double, 'per byte', 'fixed'], rows),
  ];
}
