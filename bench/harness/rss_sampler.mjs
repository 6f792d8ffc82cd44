// Samples the RSS of the whole process from a worker thread, so it keeps sampling while the main thread is busy
// in a synchronous parse loop (a setInterval on the main thread would not fire once until the loop ends).
import { Worker } from 'node:worker_threads';

const STOP = 0;
const PEAK_KIB = 1;
const SLEEP = 2;
const SAMPLES = 3;

function sample(cells, intervalMs) {
  // Runs inside the worker: process.memoryUsage.rss() is process-wide, not per thread.
  while (Atomics.load(cells, 0) === 0) {
    const kib = Math.ceil(process.memoryUsage.rss() / 1024);
    const peak = Atomics.load(cells, 1);
    if (kib > peak) Atomics.compareExchange(cells, 1, peak, kib);
    Atomics.add(cells, 3, 1);
    Atomics.wait(cells, 2, 0, intervalMs);
  }
}

export class RssSampler {
  #cells = new Int32Array(new SharedArrayBuffer(4 * Int32Array.BYTES_PER_ELEMENT));
  #worker;

  /** Resolves once the worker has taken its first sample, so the sampler is running before anything is timed. */
  static async start(intervalMs = 1) {
    const sampler = new RssSampler();
    const source = `const { workerData } = require('node:worker_threads');
      (${sample.toString()})(new Int32Array(workerData.buffer), ${Number(intervalMs)});`;
    sampler.#worker = new Worker(source, { eval: true, workerData: { buffer: sampler.#cells.buffer } });
    while (Atomics.load(sampler.#cells, SAMPLES) === 0) await new Promise((resolve) => setTimeout(resolve, 1));
    return sampler;
  }

  /** Forget the peak so far: the peak from now on is at least `rssBytes`. */
  reset(rssBytes) {
    Atomics.store(this.#cells, PEAK_KIB, Math.ceil(rssBytes / 1024));
    Atomics.store(this.#cells, SAMPLES, 0);
  }

  /** Stops the worker; returns the peak RSS in bytes since the last reset and the number of samples taken. */
  async stop() {
    Atomics.store(this.#cells, STOP, 1);
    Atomics.notify(this.#cells, SLEEP);
    await new Promise((resolve) => this.#worker.once('exit', resolve));
    return { peak: Atomics.load(this.#cells, PEAK_KIB) * 1024, samples: Atomics.load(this.#cells, SAMPLES) };
  }
}

/**
 * The timed part of a child (bench:parse, bench:stringify, started with --expose-gc): `run()` after two
 * collections, with the RSS sampled around it; resolves to what the run returned and the measurements.
 */
export async function timedRun(run, sampleIntervalMs) {
  const sampler = await RssSampler.start(sampleIntervalMs);
  globalThis.gc();
  globalThis.gc();
  const rssBaseline = process.memoryUsage().rss;
  sampler.reset(rssBaseline);
  const cpuBefore = process.cpuUsage();
  const faultsBefore = process.resourceUsage().minorPageFault;
  const startedAt = performance.now();
  const result = await run();
  const endedAt = performance.now();
  const faults = process.resourceUsage().minorPageFault - faultsBefore;
  const cpu = process.cpuUsage(cpuBefore);
  const rssAfter = process.memoryUsage().rss;
  const { peak, samples } = await sampler.stop();
  return {
    result,
    startedAt,
    ms: endedAt - startedAt,
    rssBaseline,
    rssPeak: Math.max(peak, rssAfter),
    rssAfter,
    samples,
    // All threads of the process (GC helpers, the sampler): well under `ms` means the run waited for a busy CPU.
    cpuMs: (cpu.user + cpu.system) / 1000,
    // Pages the run touched for the first time (the whole process: the sampler's thread takes a few): what the
    // environment's "Memory:" rate costs each competitor.
    faults,
  };
}
