/* System V shared memory: shmget, two attaches of one segment see the same bytes,
 * IPC_STAT (not its mode: QEMU 7.2 gives 0 there), IPC_RMID with the segment still attached, shmdt, and the errors. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/shm.h>

int main(void) {
  int id = shmget(IPC_PRIVATE, 10000, IPC_CREAT | 0600);
  printf("shmget ok %d\n", id >= 0);
  char *a = shmat(id, NULL, 0), *b = shmat(id, NULL, 0);
  printf("attached %d %d distinct %d\n", a != (void *)-1, b != (void *)-1, a != b);
  printf("zero %d\n", a[0] == 0 && a[9999] == 0);
  strcpy(a, "shared bytes");
  printf("b sees: %s\n", b);
  struct shmid_ds ds;
  printf("stat %d size %zu attaches %lu \n", shmctl(id, IPC_STAT, &ds), ds.shm_segsz,
         (unsigned long)ds.shm_nattch);
  printf("rmid %d\n", shmctl(id, IPC_RMID, NULL));
  b[100] = 7;
  printf("a[100] %d\n", a[100]);
  printf("dt %d %d\n", shmdt(a), shmdt(b));
  printf("dt again %d %s\n", shmdt(a), strerror(errno));
  printf("attach removed %d %s\n", shmat(id, NULL, 0) == (void *)-1, strerror(errno));
  printf("get size 0 %d %s\n", shmget(IPC_PRIVATE, 0, IPC_CREAT | 0600), strerror(errno));
  printf("get missing key %d %s\n", shmget(12345, 100, 0600), strerror(errno));
  return 0;
}
