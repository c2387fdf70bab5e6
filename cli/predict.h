/* predict.h - `ordex predict`. */
#ifndef ORDEX_CLI_PREDICT_H
#define ORDEX_CLI_PREDICT_H

/* argv[0] is "predict"; returns the process exit status (0, 1 or 2). */
int ordex_predict(int argc, char **argv);

#endif
