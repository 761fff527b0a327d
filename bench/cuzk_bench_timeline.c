/*
 * cuzk-bench-timeline LOG [-o OUT.svg]: the `cuzk-bench timeline` command as a program of its own
 * until cuzk-bench dispatches to cz_timeline_cmd (src/engine/timeline_cmd.c, docs/timeline.md).
 */
#include "cuzk/timeline.h"

int main(int argc, char **argv) {
    return cz_timeline_cmd(argc, argv);
}
