/*
 * request.h - requests: the handles of nonblocking operations, and the
 * blocking wait every blocking MPI call is built on.
 */
#ifndef ORDEX_SIM_REQUEST_H
#define ORDEX_SIM_REQUEST_H

#include <mpi.h>
#include <stdbool.h>

typedef struct sim_request sim_request;

/* Gives a request a handle the program can hold (MPI_Isend & co.). */
MPI_Request sim_request_publish(sim_request *req);

/* Blocks the calling rank until req completes, fills *status (unless
 * MPI_STATUS_IGNORE) and frees the request.  Returns the request's error
 * code (MPI_SUCCESS, or e.g. MPI_ERR_TRUNCATE after sim_error). */
int sim_request_wait(sim_request *req, MPI_Status *status);

#endif
