/* replay.h - `ordex replay`. */
#ifndef ORDEX_CLI_REPLAY_H
#define ORDEX_CLI_REPLAY_H

/* argv[0] is "replay"; returns the exit status (0, 1 or 2). */
int ordex_replay(int argc, char **argv);

#endif
