/* The exit status of main reaches the host. */
int main(void) { return 7; }
