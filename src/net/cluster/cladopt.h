/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cladopt: the tables of a node of a cluster (docs/cluster.md): every
 * table the lobby runs holds its lease (net/cluster), taken when the table
 * is made or restored and dropped when it closes; the tables in play that
 * the shared store holds and nobody runs are taken and restored (a
 * cluster started again; a table whose node was lost and whose lease none
 * took); a lost node's table this node won (on_table_adopted) is rebuilt
 * from its stored actions; a table whose lease another node took
 * (on_table_lost) stops here at once, without a write.
 *
 * Taking a table over in the store (store_table_own) comes before reading
 * it, so that the former owner's writes are refused from then on and what
 * it wrote before is read. With the store's worker (cladopt_set_worker),
 * that and the reading and replaying are done there, on its own
 * connection, and the loop only installs the table; without it, the store
 * is read on the loop, once a round for every table waiting. */
#ifndef TAPIS_CLADOPT_H
#define TAPIS_CLADOPT_H

struct lobby;
struct cluster;
struct cladopt;
struct storew;

/* The store looked through for tables in play that nobody runs: first
 * this long after the link is up (the other nodes read), again as long
 * after, then every CLADOPT_SCAN_MS. */
#define CLADOPT_FIRST_MS 2000
#define CLADOPT_SCAN_MS 30000

/* Follow l's tables on c (l->on_running is set). */
struct cladopt *cladopt_new(struct lobby *l, struct cluster *c);
/* The tables won are restored on w (the store's worker: read and
 * replayed off the loop, only installed on it); NULL: on the loop. */
void cladopt_set_worker(struct cladopt *a, struct storew *w);
/* Before the lobby is released, after the cluster was left and the
 * worker freed (its jobs back). */
void cladopt_free(struct cladopt *a);
/* The cluster's hooks: this node won table (a lost node's), or another
 * node holds table's lease now. */
void cladopt_adopted(struct cladopt *a, long table);
void cladopt_lost(struct cladopt *a, long table);
/* Often (the server's tick): the tables won are restored; the leases not
 * taken (the link was down) asked again; the store looked through (above). */
void cladopt_tick(struct cladopt *a, long long now_ms);
/* Tables restored here from the store so far (adopted or taken). */
long cladopt_restored(const struct cladopt *a);

#endif
