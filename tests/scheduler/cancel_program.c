/*
 * cancel_program.c - a program that may cancel a send: it refers to
 * MPI_Cancel (resolved by ordex when loaded; the test only reads the file).
 */
int ordex_program_abi = 1;

int MPI_Cancel(void *request);

int main(void) {
    return MPI_Cancel(0);
}
