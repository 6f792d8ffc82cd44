// The processes that run web pages, per engine, among this process's descendants (the engines of
// tests/browser/engines start every browser under it): where a page's memory and CPU time are.
import { commandLine, descendants } from '../harness/proc_rss.mjs';

const IS_CONTENT = {
  // Chromium rewrites its command line into one space-separated string; its own UI and extensions are renderers too.
  chromium: (args) =>
    args.includes('--type=renderer') && !args.includes('--extension-process') && !args.includes('webui'),
  // Tab content processes; the others (-contentproc without -isForBrowser) are sockets, media, utilities.
  firefox: (args) => args.includes('-contentproc') && args.includes('-isForBrowser'),
  webkit: (args) => /WebKitWebProcess(\s|$)/.test(args),
};

/** @param {'chromium' | 'firefox' | 'webkit'} engine */
export function contentProcesses(engine) {
  return descendants(process.pid).filter((pid) => IS_CONTENT[engine](commandLine(pid).join(' ')));
}
