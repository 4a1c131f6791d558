/* pthreads: four workers add to one counter under a mutex, a producer hands items to
   consumers through a queue guarded by a mutex and two condition variables, and
   the main thread joins them all. Only totals are printed, which any interleaving
   gives. The test runs it on 4 I-streams (tpfemu exec --istreams 4). */
#include <pthread.h>
#include <stdio.h>

enum { WORKERS = 4, ADDS = 20000, ITEMS = 2000, CONSUMERS = 3, SLOTS = 8 };

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static long counter;

static void* worker(void* arg) {
  long id = (long)arg;
  for (int k = 0; k < ADDS; ++k) {
    pthread_mutex_lock(&lock);
    counter += id + 1;
    pthread_mutex_unlock(&lock);
  }
  return (void*)(id * 10);
}

static pthread_mutex_t qlock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t not_empty = PTHREAD_COND_INITIALIZER, not_full = PTHREAD_COND_INITIALIZER;
static int queue[SLOTS], head, count, done;

static void* producer(void* arg) {
  (void)arg;
  for (int item = 1; item <= ITEMS; ++item) {
    pthread_mutex_lock(&qlock);
    while (count == SLOTS) pthread_cond_wait(&not_full, &qlock);
    queue[(head + count++) % SLOTS] = item;
    pthread_cond_signal(&not_empty);
    pthread_mutex_unlock(&qlock);
  }
  pthread_mutex_lock(&qlock);
  done = 1;
  pthread_cond_broadcast(&not_empty);
  pthread_mutex_unlock(&qlock);
  return NULL;
}

static void* consumer(void* arg) {
  long* sum = arg;
  for (;;) {
    pthread_mutex_lock(&qlock);
    while (count == 0 && !done) pthread_cond_wait(&not_empty, &qlock);
    if (count == 0 && done) {
      pthread_mutex_unlock(&qlock);
      return NULL;
    }
    int item = queue[head];
    head = (head + 1) % SLOTS, --count;
    pthread_cond_signal(&not_full);
    pthread_mutex_unlock(&qlock);
    *sum += item;
  }
}

int main(void) {
  pthread_t t[WORKERS];
  for (long k = 0; k < WORKERS; ++k)
    if (pthread_create(&t[k], NULL, worker, (void*)k)) return printf("pthread_create failed\n"), 1;
  long results = 0;
  for (int k = 0; k < WORKERS; ++k) {
    void* r;
    pthread_join(t[k], &r);
    results += (long)r;
  }
  printf("counter %ld (expected %ld), results %ld\n", counter, (long)ADDS * (1 + 2 + 3 + 4), results);

  pthread_t p, c[CONSUMERS];
  long sums[CONSUMERS] = {0};
  pthread_create(&p, NULL, producer, NULL);
  for (int k = 0; k < CONSUMERS; ++k) pthread_create(&c[k], NULL, consumer, &sums[k]);
  pthread_join(p, NULL);
  long total = 0;
  for (int k = 0; k < CONSUMERS; ++k) pthread_join(c[k], NULL), total += sums[k];
  printf("consumed %ld (expected %ld)\n", total, (long)ITEMS * (ITEMS + 1) / 2);
  return 0;
}
