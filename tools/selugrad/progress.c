/*
 * Progress of a long command on stderr (docs/cli.md, "Progress"), in the manner of `st`'s: on a
 * terminal a bar redrawn in place, otherwise a line at each tenth, so that a log stays short. A
 * command on fewer than CLI_PROGRESS_MIN elements prints nothing.
 */
#include <unistd.h>

#include "cli.h"

void cli_progress_begin(cli_progress *p, const char *cmd, size_t n, int steps) {
    p->cmd = cmd;
    p->on = n >= CLI_PROGRESS_MIN;
    p->tty = p->on && isatty(STDERR_FILENO);
    p->total = (double)n * steps; /* a double: n * steps may pass SIZE_MAX for 1-byte dtypes */
    p->done = 0.0;
    p->shown = -1;
}

void cli_progress_bar(size_t done, size_t total) {
    int w = 40, fill = total ? (int)(done * (size_t)w / total) : w;
    fprintf(stderr, "[%.*s%*s]", fill, "########################################", w - fill, "");
}

void cli_progress_add(cli_progress *p, const char *stage, size_t n) {
    if (p == NULL || !p->on) return;
    p->done += (double)n;
    int pct = p->done >= p->total ? 100 : (int)(p->done * 100.0 / p->total);
    if (p->tty) {
        if (pct == p->shown) return;
        fprintf(stderr, "\rselugrad %s: ", p->cmd);
        cli_progress_bar((size_t)pct, 100);
        fprintf(stderr, " %3d%% %-20s", pct, stage);
        if (pct == 100) fputc('\n', stderr);
    } else {
        if (pct / 10 == p->shown / 10 && p->shown >= 0) return;
        fprintf(stderr, "selugrad %s: %d%% (%s)\n", p->cmd, pct / 10 * 10, stage);
    }
    p->shown = pct;
}

void cli_progress_end(cli_progress *p) {
    if (p->tty && p->shown >= 0 && p->shown < 100) fputc('\n', stderr); /* a bar cut short */
    p->on = 0;
}
