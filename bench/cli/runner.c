// bench:cli's harness: runs a command, stdout to /dev/null (or a pipe it drains; --first: killed at the first byte),
// stderr to /dev/null; prints as JSON: CPU time from wait4 (us, not 1/100 s), peak RSS, wall, first byte, bytes out.
#define _GNU_SOURCE
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

int main(int argc, char** argv) {
  int use_pipe = 0, first_only = 0, i = 1;
  const char* input = NULL;
  for (; i < argc; ++i) {
    if (!strcmp(argv[i], "--pipe")) use_pipe = 1;
    else if (!strcmp(argv[i], "--first")) first_only = use_pipe = 1;
    else if (!strcmp(argv[i], "--stdin") && i + 1 < argc) input = argv[++i];
    else if (!strcmp(argv[i], "--")) { ++i; break; }
    else break;
  }
  if (i >= argc) {
    fprintf(stderr, "usage: runner [--pipe [--first]] [--stdin FILE] -- COMMAND ARGS...\n");
    return 2;
  }
  int fds[2];
  if (use_pipe && pipe(fds) != 0) return perror("pipe"), 1;
  const double start = now_ms();
  const pid_t pid = fork();
  if (pid == 0) {
    const int null = open("/dev/null", O_WRONLY);
    dup2(use_pipe ? fds[1] : null, 1);
    dup2(null, 2);
    close(null);
    if (use_pipe) {
      close(fds[0]);
      close(fds[1]);
    }
    const int in = open(input ? input : "/dev/null", O_RDONLY);
    if (in < 0) _exit(126);
    dup2(in, 0);
    close(in);
    execvp(argv[i], argv + i);
    _exit(127);
  }
  double first = -1;
  long long bytes = 0;
  if (use_pipe) {
    close(fds[1]);
    static char buffer[1 << 16];
    ssize_t n;
    while ((n = read(fds[0], buffer, sizeof buffer)) > 0) {
      if (first < 0) first = now_ms() - start;
      bytes += n;
      if (first_only) {
        kill(pid, SIGKILL);
        break;
      }
    }
    close(fds[0]);
  }
  int status;
  struct rusage usage;
  if (wait4(pid, &status, 0, &usage) < 0) return perror("wait4"), 1;
  const double wall = now_ms() - start;
  const double cpu = (usage.ru_utime.tv_sec * 1e3 + usage.ru_utime.tv_usec / 1e3) +
                     (usage.ru_stime.tv_sec * 1e3 + usage.ru_stime.tv_usec / 1e3);
  const int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  char first_text[32] = "null";
  if (first >= 0) snprintf(first_text, sizeof first_text, "%.3f", first);
  printf("{\"cpuMs\":%.3f,\"wallMs\":%.3f,\"maxRssKiB\":%ld,\"firstByteMs\":%s,\"bytesOut\":%lld,\"code\":%d}\n",
         cpu, wall, usage.ru_maxrss, first_text, bytes, code);
  return 0;
}
