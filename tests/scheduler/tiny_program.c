/*
 * tiny_program.c - the smallest program the scheduler accepts (the marker
 * ordexcc adds, and a main), for tests of loading and running ranks.
 */
int ordex_program_abi = 1;

int main(void) {
    return 0;
}
