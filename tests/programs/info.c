/*
 * info.c - info objects (MPI 3.1 chapter 9) and the hints communicators
 * and windows keep, checked against what the standard says.
 *
 * Every rank prints its own lines; the output is MPICH's
 * (tests/e2e/expected/info.n2.out).  ordex must report nothing:
 *   - keys in the order first set, a new value in place, case and spaces
 *     kept; MPI_Info_get_valuelen, a value truncated to valuelen;
 *   - MPI_Info_delete, MPI_Info_dup (an independent copy), MPI_Info_free;
 *   - MPI_INFO_ENV can be read;
 *   - a communicator hint of MPI 4.0 (mpi_assert_no_any_tag) comes back
 *     from MPI_Comm_get_info, also after MPI_Comm_dup_with_info;
 *   - a window's hints come back from MPI_Win_get_info (the standard's
 *     keys, with their defaults where none was given).
 */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

static int rank;

static void show(const char *what, MPI_Info info) {
    int n;
    MPI_Info_get_nkeys(info, &n);
    printf("rank %d: %s has %d keys:", rank, what, n);
    for (int i = 0; i < n; i++) {
        char key[MPI_MAX_INFO_KEY + 1], value[MPI_MAX_INFO_VAL + 1];
        int flag, len;
        MPI_Info_get_nthkey(info, i, key);
        MPI_Info_get_valuelen(info, key, &len, &flag);
        MPI_Info_get(info, key, MPI_MAX_INFO_VAL, value, &flag);
        printf(" [%s]=[%s](%d)", key, value, len);
    }
    printf("\n");
}

static void show_key(const char *what, MPI_Info info, const char *key) {
    char value[MPI_MAX_INFO_VAL + 1];
    int flag;
    MPI_Info_get(info, key, MPI_MAX_INFO_VAL, value, &flag);
    printf("rank %d: %s %s: %s\n", rank, what, key, flag ? value : "(not set)");
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);

    MPI_Info info;
    MPI_Info_create(&info);
    show("new info", info);
    MPI_Info_set(info, "b", "2");
    MPI_Info_set(info, "A Key", " spaced value ");
    MPI_Info_set(info, "c", "3");
    MPI_Info_set(info, "b", "twenty");
    show("info", info);
    int flag;
    char value[8];
    MPI_Info_get(info, "a key", 7, value, &flag);
    printf("rank %d: keys are case-sensitive: found %d\n", rank, flag);

    MPI_Info copy;
    MPI_Info_dup(info, &copy);
    MPI_Info_delete(info, "b");
    MPI_Info_set(copy, "d", "4");
    show("after delete", info);
    show("dup", copy);
    MPI_Info_free(&copy);
    printf("rank %d: freed info is MPI_INFO_NULL %d\n", rank, copy == MPI_INFO_NULL);

    int nenv;
    MPI_Info_get_nkeys(MPI_INFO_ENV, &nenv);
    printf("rank %d: MPI_INFO_ENV readable %d\n", rank, nenv >= 0);

    /* Communicator hints. */
    MPI_Info hints, used;
    MPI_Info_create(&hints);
    MPI_Info_set(hints, "mpi_assert_no_any_tag", "true");
    MPI_Comm comm;
    MPI_Comm_dup_with_info(MPI_COMM_WORLD, hints, &comm);
    MPI_Comm_get_info(comm, &used);
    show_key("dup_with_info", used, "mpi_assert_no_any_tag");
    MPI_Info_free(&used);
    MPI_Info_set(hints, "mpi_assert_no_any_tag", "false");
    MPI_Comm_set_info(comm, hints);
    MPI_Comm_get_info(comm, &used);
    show_key("set_info", used, "mpi_assert_no_any_tag");
    MPI_Info_free(&used);
    MPI_Info_free(&hints);

    /* Window hints. */
    int buf[4];
    MPI_Win win;
    MPI_Info_create(&hints);
    MPI_Info_set(hints, "no_locks", "true");
    MPI_Info_set(hints, "accumulate_ops", "same_op");
    MPI_Info_set(hints, "same_size", "true");
    MPI_Win_create(buf, sizeof buf, sizeof(int), hints, comm, &win);
    MPI_Info_free(&hints);
    MPI_Win_get_info(win, &used);
    const char *keys[] = {"no_locks",  "accumulate_ordering", "accumulate_ops",
                          "same_size", "same_disp_unit",      "alloc_shared_noncontig"};
    for (int i = 0; i < 6; i++)
        show_key("window", used, keys[i]);
    MPI_Info_free(&used);
    MPI_Win_fence(0, win);
    MPI_Win_fence(0, win);
    MPI_Win_free(&win);

    MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, comm, &win);
    MPI_Win_get_info(win, &used);
    for (int i = 0; i < 6; i++)
        show_key("default window", used, keys[i]);
    MPI_Info_free(&used);
    MPI_Win_free(&win);
    MPI_Comm_free(&comm);
    MPI_Info_free(&info);
    fflush(stdout);
    MPI_Finalize();
    return 0;
}
