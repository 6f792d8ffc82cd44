// One status line redrawn in place while something runs (on a terminal), or a line at the start and one at the
// end (in CI logs, where redrawing would print hundreds of lines).
const FRAMES = '⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏';
const interactive = Boolean(process.stderr.isTTY);

/** `[█████░░░░░]` for a fraction in 0..1. */
export function bar(fraction, width = 24) {
  const filled = Math.round(Math.min(1, Math.max(0, fraction)) * width);
  return `[${'█'.repeat(filled)}${'░'.repeat(width - filled)}]`;
}

/** Shows `label` and `status()` with a spinner and the elapsed time until `task()` settles. */
export async function withProgress(label, status, task) {
  const started = performance.now();
  let frame = 0;
  const draw = () => {
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    process.stderr.write(`\r\x1b[2K  ${FRAMES[frame++ % FRAMES.length]} ${label}  ${status()}  ${seconds} s`);
  };
  if (interactive) draw();
  else process.stderr.write(`  ${label} ...\n`);
  const timer = interactive ? setInterval(draw, 80) : null;
  try {
    return await task();
  } finally {
    clearInterval(timer);
    if (interactive) process.stderr.write('\r\x1b[2K');
  }
}
