// The progress bar on standard error: bytes read (of the total, when known), elements, MB/s and the time left.
// Redrawn at most every 100 ms, from the reading loop itself (a file is read without yielding to the event loop)
// and from a timer while a download waits. On a terminal it is drawn over itself and erased at the end; forced
// onto a file or a pipe (--progress), it writes a line a second and a last one at the end.
import { writeSync } from 'node:fs';

// Between drawings: a terminal redraws in place; a log gets a line a second.
const TERMINAL_MS = 100;
const LOG_MS = 1000;
const encoder = new TextEncoder();

export class Progress {
  private readonly total_: number | undefined;
  private readonly terminal_: boolean;
  private readonly columns_: number;
  private readonly interval_: number;
  private readonly started_ = performance.now();
  // The first update draws at once: how soon after start it comes must not decide whether a short run shows a bar.
  private last_ = -Infinity;
  private drawn_ = false;
  private bytes_ = 0;
  private elements_ = 0;
  private timer_: ReturnType<typeof setInterval> | undefined;

  /** `columns`: the terminal's width, for a bar drawn in place (undefined: a log, a line per state). */
  constructor(total: number | undefined, columns: number | undefined) {
    this.total_ = total;
    this.terminal_ = columns !== undefined;
    this.columns_ = columns ?? 80;
    this.interval_ = this.terminal_ ? TERMINAL_MS : LOG_MS;
    // While a read waits (a slow download), the loop does not redraw: the timer does. unref: it never keeps the
    // process alive.
    this.timer_ = setInterval(() => this.update(this.bytes_, this.elements_), this.interval_);
    (this.timer_ as { unref?: () => void }).unref?.();
  }

  /** The counts so far; redraws when the last drawing is old enough. */
  update(bytes: number, elements: number): void {
    this.bytes_ = bytes;
    this.elements_ = elements;
    const now = performance.now();
    if (now - this.last_ >= this.interval_) this.draw_(now);
  }

  /** Erases the bar (on a terminal) before other text is written to it. */
  clear(): void {
    if (!this.drawn_ || !this.terminal_) return;
    this.write_('\r\x1b[K');
    this.drawn_ = false;
  }

  /** The final state: erased on a terminal, a last line elsewhere. */
  finish(): void {
    if (this.timer_ === undefined) return;
    if (this.terminal_) this.clear();
    else this.draw_(performance.now());
    clearInterval(this.timer_);
    this.timer_ = undefined;
  }

  private draw_(now: number): void {
    this.last_ = now;
    const seconds = (now - this.started_) / 1000;
    const rate = seconds > 0 ? this.bytes_ / seconds : 0;
    const parts: string[] = [];
    const total = this.total_;
    if (total !== undefined && total > 0) {
      const fraction = Math.min(1, this.bytes_ / total);
      parts.push(
        `${(fraction * 100).toFixed(0).padStart(3)}% ${bar(fraction, 20)} ${size(this.bytes_)} / ${size(total)}`,
      );
    } else {
      parts.push(size(this.bytes_));
    }
    parts.push(`${grouped(this.elements_)} elements`, `${(rate / 1e6).toFixed(0)} MB/s`);
    if (total !== undefined && rate > 0 && this.bytes_ < total)
      parts.push(`${clock((total - this.bytes_) / rate)} left`);
    let text = parts.join(' · ');
    if (this.terminal_) {
      if (text.length > this.columns_ - 1) text = text.slice(0, this.columns_ - 1);
      this.write_(`\r${text}\x1b[K`);
    } else {
      this.write_(`${text}\n`);
    }
    this.drawn_ = true;
  }

  private write_(text: string): void {
    try {
      const bytes = encoder.encode(text);
      writeSync(2, bytes, 0, bytes.length);
    } catch {
      // A progress bar that cannot be drawn is no reason to stop the command.
    }
  }
}

// 1234567 -> "1,234,567" (toLocaleString would load ICU's data: megabytes of memory for a comma).
function grouped(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+$)/g, ',');
}

function bar(fraction: number, width: number): string {
  const filled = Math.round(fraction * width);
  return `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}]`;
}

function size(bytes: number): string {
  if (bytes < 1e6) return `${(bytes / 1e3).toFixed(1)} kB`;
  if (bytes < 1e9) return `${(bytes / 1e6).toFixed(1)} MB`;
  return `${(bytes / 1e9).toFixed(2)} GB`;
}

function clock(seconds: number): string {
  const s = Math.ceil(seconds);
  const m = Math.floor(s / 60);
  const h = Math.floor(m / 60);
  const mm = String(m % 60).padStart(2, '0');
  const ss = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${mm}:${ss}` : `${m}:${ss}`;
}
