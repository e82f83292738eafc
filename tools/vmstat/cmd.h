/* cmd - the subcommands of nlru-vmstat; each takes its own argv (argv[0] = its name). */
#ifndef NODELRU_TOOLS_VMSTAT_CMD_H
#define NODELRU_TOOLS_VMSTAT_CMD_H

int cmd_show(int argc, char **argv);
int cmd_diff(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_zoneinfo(int argc, char **argv);
int cmd_watch(int argc, char **argv);
int cmd_plot(int argc, char **argv);
int cmd_diskstats(int argc, char **argv);

#endif /* NODELRU_TOOLS_VMSTAT_CMD_H */
