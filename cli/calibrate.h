/* calibrate.h - `ordex calibrate`: measures this machine with real MPICH and
 * writes a platform file for `ordex predict --platform`. */
#ifndef ORDEX_CLI_CALIBRATE_H
#define ORDEX_CLI_CALIBRATE_H

/* argv[0] is "calibrate"; returns the process exit status (0, or 2 after
 * printing one line about the problem). */
int ordex_calibrate(int argc, char **argv);

#endif
