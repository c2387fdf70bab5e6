/*
 * datafile.h - files of the ordex source tree that the commands need at run
 * time (include/ordex.h, tools/gdb/ordex.py, tools/calibrate/mpibench.c).
 */
#ifndef ORDEX_TC_DATAFILE_H
#define ORDEX_TC_DATAFILE_H

/* The regular file `rel` of the source tree (g_free), canonical: under
 * $ORDEX_HOME when it is set (the launchers and the tests set it), else
 * found from the binary's place (the launchers keep it in <tree>/.cache/bin;
 * a binary in Bazel's output has the tree in its runfiles).  NULL when it is
 * not there; *where (g_free, may be NULL) then says where it was looked for. */
char *tc_data_file(const char *rel, char **where);

#endif
