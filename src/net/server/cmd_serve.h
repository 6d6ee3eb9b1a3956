/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cmd_serve: the `tapis serve` command line (docs/tapis.6, SERVE). */
#ifndef TAPIS_CMD_SERVE_H
#define TAPIS_CMD_SERVE_H

struct server_node_ops;
/* argv[0] is "serve". Returns the exit status. words: the web page's
 * words (ui/words_json); node: what joins a cluster (net/cluster's
 * node_ops); both passed down from main. */
int serve_main(int argc, char **argv, char *(*words)(const char *lang), const struct server_node_ops *node);

#endif
