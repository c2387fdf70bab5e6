/* run.h - `ordex run`. */
#ifndef ORDEX_CLI_RUN_H
#define ORDEX_CLI_RUN_H

/* argv[0] is "run"; returns the process exit status (0, 1 or 2). */
int ordex_run(int argc, char **argv);

#endif
