/*
 * errhandlers.c - user error handlers and added error codes (MPI 3.1
 * sections 8.3-8.5), checked against what the standard says.
 *
 * Every rank prints its own lines; the output is MPICH's
 * (tests/e2e/expected/errhandlers.n2.out).  ordex must report nothing:
 *   - an MPI error under a user handler calls it with the communicator and
 *     the code, and the call returns the code (its class MPI_ERR_RANK);
 *   - a communicator made from another inherits its handler, which then
 *     gets the new communicator;
 *   - MPI_Comm_call_errhandler calls the handler with the code given (one
 *     the program added, with its string) and returns MPI_SUCCESS, also
 *     under MPI_ERRORS_RETURN;
 *   - MPI_Comm_get_errhandler returns the handler set; a freed handler
 *     still serves the communicators it is attached to;
 *   - window handlers get the window (MPI_Win_call_errhandler, a put to a
 *     rank outside the window);
 *   - MPI_FILE_NULL's handler can be replaced and called;
 *   - MPI_Error_class of an added code is its class, MPI_Error_string its
 *     string.
 */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

static int rank;
static MPI_Comm dup;
static MPI_Win win;

static void comm_handler(MPI_Comm *comm, int *code, ...) {
    char s[MPI_MAX_ERROR_STRING];
    int len, cls;
    MPI_Error_class(*code, &cls);
    MPI_Error_string(*code, s, &len);
    const char *which = *comm == MPI_COMM_WORLD ? "world" : *comm == dup ? "dup" : "other";
    if (cls == MPI_ERR_RANK)
        printf("rank %d: comm handler on %s, class MPI_ERR_RANK\n", rank, which);
    else
        printf("rank %d: comm handler on %s, class is code %d, string \"%s\"\n", rank, which,
               cls == *code, s);
}

static void win_handler(MPI_Win *w, int *code, ...) {
    int cls;
    MPI_Error_class(*code, &cls);
    printf("rank %d: win handler on our window %d, class %s\n", rank, *w == win,
           cls == MPI_ERR_RANK  ? "MPI_ERR_RANK"
           : cls == MPI_ERR_WIN ? "MPI_ERR_WIN"
                                : "other");
}

static void file_handler(MPI_File *f, int *code, ...) {
    printf("rank %d: file handler on MPI_FILE_NULL %d, code is MPI_ERR_FILE %d\n", rank,
           *f == MPI_FILE_NULL, *code == MPI_ERR_FILE);
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);

    MPI_Errhandler eh;
    MPI_Comm_create_errhandler(comm_handler, &eh);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, eh);
    int x = 0, cls;
    int rc = MPI_Send(&x, 1, MPI_INT, 99, 0, MPI_COMM_WORLD);
    MPI_Error_class(rc, &cls);
    printf("rank %d: send returned class MPI_ERR_RANK %d\n", rank, cls == MPI_ERR_RANK);

    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    rc = MPI_Send(&x, 1, MPI_INT, 99, 0, dup);
    printf("rank %d: send on dup returned an error %d\n", rank, rc != MPI_SUCCESS);

    MPI_Errhandler got;
    MPI_Comm_get_errhandler(dup, &got);
    printf("rank %d: dup's handler is ours %d\n", rank, got == eh);
    MPI_Errhandler_free(&got);
    MPI_Errhandler_free(&eh);
    printf("rank %d: freed handle is null %d\n", rank, eh == MPI_ERRHANDLER_NULL);

    int myclass, mycode;
    MPI_Add_error_class(&myclass);
    MPI_Add_error_code(myclass, &mycode);
    MPI_Add_error_string(mycode, "the program's own error");
    MPI_Error_class(mycode, &cls);
    printf("rank %d: added class above MPI_ERR_LASTCODE %d, code's class %d, code differs %d\n",
           rank, myclass > MPI_ERR_LASTCODE, cls == myclass, mycode != myclass);
    int *last, flag;
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_LASTUSEDCODE, &last, &flag);
    printf("rank %d: MPI_LASTUSEDCODE at least the class %d\n", rank, flag && *last >= myclass);
    rc = MPI_Comm_call_errhandler(dup, mycode); /* the freed handler still serves dup */
    printf("rank %d: call_errhandler returned MPI_SUCCESS %d\n", rank, rc == MPI_SUCCESS);
    MPI_Comm_set_errhandler(dup, MPI_ERRORS_RETURN);
    rc = MPI_Comm_call_errhandler(dup, mycode);
    printf("rank %d: call_errhandler under MPI_ERRORS_RETURN returned MPI_SUCCESS %d\n", rank,
           rc == MPI_SUCCESS);

    int buf[2];
    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, dup, &win);
    MPI_Errhandler weh;
    MPI_Win_create_errhandler(win_handler, &weh);
    MPI_Win_set_errhandler(win, weh);
    MPI_Errhandler_free(&weh);
    MPI_Win_call_errhandler(win, MPI_ERR_WIN);
    MPI_Win_fence(0, win);
    rc = MPI_Put(&x, 1, MPI_INT, 5, 0, 1, MPI_INT, win);
    printf("rank %d: put to rank 5 returned an error %d\n", rank, rc != MPI_SUCCESS);
    MPI_Win_fence(0, win);
    MPI_Win_free(&win);

    MPI_Errhandler feh;
    MPI_File_create_errhandler(file_handler, &feh);
    MPI_File_set_errhandler(MPI_FILE_NULL, feh);
    MPI_File_call_errhandler(MPI_FILE_NULL, MPI_ERR_FILE);
    MPI_Errhandler_free(&feh);

    char s[MPI_MAX_ERROR_STRING];
    int len;
    MPI_Error_string(myclass, s, &len);
    printf("rank %d: class without a string: \"%s\" (%d)\n", rank, s, len);
    MPI_Comm_free(&dup);
    fflush(stdout);
    MPI_Finalize();
    return 0;
}
