/* explore.h - `ordex explore`. */
#ifndef ORDEX_CLI_EXPLORE_H
#define ORDEX_CLI_EXPLORE_H

/* argv[0] is "explore"; returns the exit status (0, 1 or 2). */
int ordex_explore(int argc, char **argv);

#endif
