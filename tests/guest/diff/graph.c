/* Graph algorithms on a generated sparse graph in CSR form: BFS distances, iterative
   DFS with discovery/finish times, Dijkstra with a binary heap (int64 weights),
   topological sort of a DAG (Kahn), connected components by union-find with path
   compression and union by rank, and Kruskal's minimum spanning tree. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define V 600
#define E 2400
static int eu[E], ev[E];
static int64_t ew[E];
static int off[V + 1], adj[2 * E], adjw_idx[2 * E];

static int parent[V], rnk[V];
static int find(int x) {
  while (parent[x] != x) parent[x] = parent[parent[x]], x = parent[x];
  return x;
}
static int unite(int a, int b) {
  a = find(a), b = find(b);
  if (a == b) return 0;
  if (rnk[a] < rnk[b]) { int t = a; a = b; b = t; }
  parent[b] = a;
  if (rnk[a] == rnk[b]) rnk[a]++;
  return 1;
}

static int64_t hkey[2 * E + V];
static int hval[2 * E + V], hn;
static void hpush(int64_t k, int v) {
  int i = hn++;
  while (i > 0) {
    int p = (i - 1) / 2;
    if (hkey[p] <= k) break;
    hkey[i] = hkey[p], hval[i] = hval[p], i = p;
  }
  hkey[i] = k, hval[i] = v;
}
static void hpop(int64_t *k, int *v) {
  *k = hkey[0], *v = hval[0];
  int64_t lk = hkey[--hn];
  int lv = hval[hn], i = 0;
  for (;;) {
    int c = 2 * i + 1;
    if (c >= hn) break;
    if (c + 1 < hn && hkey[c + 1] < hkey[c]) ++c;
    if (lk <= hkey[c]) break;
    hkey[i] = hkey[c], hval[i] = hval[c], i = c;
  }
  hkey[i] = lk, hval[i] = lv;
}

static int cmp_edge(const void *a, const void *b) {
  int x = *(const int *)a, y = *(const int *)b;
  if (ew[x] != ew[y]) return ew[x] < ew[y] ? -1 : 1;
  return x - y;
}

int main(void) {
  uint32_t s = 1;
  for (int i = 0; i < E; ++i) {
    s = s * 1664525u + 1013904223u;
    eu[i] = (int)((s >> 8) % V);
    s = s * 1664525u + 1013904223u;
    ev[i] = i < V - 1 && i % 3 ? i + 1 : (int)((s >> 8) % V);
    s = s * 1664525u + 1013904223u;
    ew[i] = 1 + (int64_t)((s >> 4) % 1000000);
  }
  memset(off, 0, sizeof off);
  for (int i = 0; i < E; ++i) off[eu[i] + 1]++, off[ev[i] + 1]++;
  for (int i = 0; i < V; ++i) off[i + 1] += off[i];
  int fill[V];
  memcpy(fill, off, sizeof fill);
  for (int i = 0; i < E; ++i) {
    adj[fill[eu[i]]] = ev[i], adjw_idx[fill[eu[i]]++] = i;
    adj[fill[ev[i]]] = eu[i], adjw_idx[fill[ev[i]]++] = i;
  }
  /* BFS from 0 */
  int dist[V], q[V], qh = 0, qt = 0;
  for (int i = 0; i < V; ++i) dist[i] = -1;
  dist[0] = 0, q[qt++] = 0;
  while (qh < qt) {
    int u = q[qh++];
    for (int k = off[u]; k < off[u + 1]; ++k)
      if (dist[adj[k]] < 0) dist[adj[k]] = dist[u] + 1, q[qt++] = adj[k];
  }
  int maxd = 0, reach = 0;
  long dsum = 0;
  for (int i = 0; i < V; ++i)
    if (dist[i] >= 0) ++reach, dsum += dist[i], maxd = dist[i] > maxd ? dist[i] : maxd;
  printf("bfs reach=%d maxdist=%d sum=%ld\n", reach, maxd, dsum);
  /* iterative DFS */
  int disc[V], fin[V], stk[2 * E + V], it[V], time = 0, sp = 0;
  for (int i = 0; i < V; ++i) disc[i] = -1;
  uint32_t dh = 0;
  for (int r = 0; r < V; ++r) {
    if (disc[r] >= 0) continue;
    stk[sp++] = r, disc[r] = time++, it[r] = off[r];
    while (sp) {
      int u = stk[sp - 1];
      if (it[u] < off[u + 1]) {
        int w = adj[it[u]++];
        if (disc[w] < 0) disc[w] = time++, it[w] = off[w], stk[sp++] = w;
      } else {
        fin[u] = time++, --sp;
      }
    }
  }
  for (int i = 0; i < V; ++i) dh = dh * 31 + (uint32_t)disc[i] * 1000u + (uint32_t)fin[i];
  printf("dfs time=%d hash=%08x\n", time, dh);
  /* Dijkstra */
  static int64_t dd[V];
  for (int i = 0; i < V; ++i) dd[i] = INT64_MAX;
  dd[0] = 0, hn = 0, hpush(0, 0);
  unsigned pops = 0;
  while (hn) {
    int64_t k;
    int u;
    hpop(&k, &u);
    ++pops;
    if (k > dd[u]) continue;
    for (int e = off[u]; e < off[u + 1]; ++e) {
      int w = adj[e];
      int64_t nd = k + ew[adjw_idx[e]];
      if (nd < dd[w]) dd[w] = nd, hpush(nd, w);
    }
  }
  int64_t far = 0, total = 0;
  for (int i = 0; i < V; ++i)
    if (dd[i] != INT64_MAX) total += dd[i], far = dd[i] > far ? dd[i] : far;
  printf("dijkstra pops=%u farthest=%lld total=%lld d[599]=%lld\n", pops, (long long)far, (long long)total,
         (long long)dd[V - 1]);
  /* Kahn's topological sort on the DAG of edges oriented low -> high */
  int indeg[V] = {0}, order[V], on = 0;
  for (int i = 0; i < E; ++i)
    if (eu[i] != ev[i]) indeg[eu[i] < ev[i] ? ev[i] : eu[i]]++;
  qh = qt = 0;
  for (int i = 0; i < V; ++i)
    if (!indeg[i]) q[qt++] = i;
  while (qh < qt) {
    int u = q[qh++];
    order[on++] = u;
    for (int k = off[u]; k < off[u + 1]; ++k)
      if (adj[k] > u && --indeg[adj[k]] == 0) q[qt++] = adj[k];
  }
  uint32_t th = 0;
  for (int i = 0; i < on; ++i) th = th * 31 + (uint32_t)order[i];
  printf("topo count=%d hash=%08x\n", on, th);
  /* components and Kruskal */
  for (int i = 0; i < V; ++i) parent[i] = i, rnk[i] = 0;
  static int idx[E];
  for (int i = 0; i < E; ++i) idx[i] = i;
  qsort(idx, E, sizeof idx[0], cmp_edge);
  int64_t mst = 0;
  int used = 0;
  for (int i = 0; i < E; ++i)
    if (unite(eu[idx[i]], ev[idx[i]])) mst += ew[idx[i]], ++used;
  int comps = 0;
  for (int i = 0; i < V; ++i) comps += find(i) == i;
  printf("kruskal edges=%d weight=%lld components=%d\n", used, (long long)mst, comps);
  return 0;
}
