/*
 * symbolize_program.c - a program whose ranks hand their own code addresses
 * to the test (test_symbolize.c builds it with debug information).
 */
int ordex_program_abi = 1;

void test_note(int which); /* the test's */

__attribute__((noinline)) static void leaf(void) {
    test_note(1); /* NOTE_LEAF */
}

int main(void) {
    test_note(0); /* NOTE_MAIN */
    leaf();
    return 0;
}
