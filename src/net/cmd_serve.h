/* cmd_serve: the `tapis serve` command line (CLI.md "Network play"). */
#ifndef TAPIS_CMD_SERVE_H
#define TAPIS_CMD_SERVE_H

/* argv[0] is "serve". Returns the exit status. */
int serve_main(int argc, char **argv);

#endif
