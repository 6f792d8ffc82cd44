// bench:cli's split of CPU time into what a command pays once and per byte: each command on one article, the 100 MB
// file and one twice as long, in interleaved fresh processes; the two long files' difference is 100 MB at full speed.
import { log } from '../harness/cli.mjs';
import { median } from '../harness/stats.mjs';

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
    rows: commands.map((command) => {
      const oneMs = med(`${command.id}/one`);
      const singleMs = med(`${command.id}/single`);
      const doubleMs = med(`${command.id}/double`);
      const perFileMs = doubleMs - singleMs;
      return {
        id: command.id,
        label: command.label,
        own: command.own ?? false,
        oneMs,
        singleMs,
        doubleMs,
        // (double - single) bytes in (double - single) ms: the rate once started and compiled.
        steadyMBps: (double.bytes - single.bytes) / 1e3 / perFileMs,
        fixedMs: singleMs - perFileMs * (single.bytes / (double.bytes - single.bytes)),
      };
    }),
  };
}

/** The table for table.md. */
export function fixedCostMarkdown(split) {
  const ms = (x) => `${Math.round(x)} ms`;
  return [
    `Where the CPU time goes: medians of ${split.runs} interleaved fresh processes ` +
      `(\`node -e 0\`: ${ms(split.nodeMs)}). ` +
      `Per byte: the ${split.doubleLabel} file's time less the ${split.singleLabel}'s, as MB/s. Fixed: the ` +
      `${split.singleLabel} run less its bytes at that rate (the process's start and, for sluice, V8's compile of ` +
      'the scan and the reads run before it).',
    '',
    `| command | 1 article | ${split.singleLabel} | ${split.doubleLabel} | per byte | fixed |`,
    '|---|---:|---:|---:|---:|---:|',
    ...split.rows.map(
      (r) =>
        `| ${r.own ? `**${r.label}**` : r.label} | ${ms(r.oneMs)} | ${ms(r.singleMs)} | ${ms(r.doubleMs)} | ` +
        `${Math.round(r.steadyMBps)} MB/s | ${ms(r.fixedMs)} |`,
    ),
  ];
}
