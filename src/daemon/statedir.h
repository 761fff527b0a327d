/*
 * The daemon's private directories: daemon.state_dir and the porep-synth key cache under it
 * (<state_dir>/synth-cache, or --synth-cache DIR). The daemon reads proving keys from the cache,
 * so a directory that another user can write is a way to make it use a planted key: start-up
 * refuses it (exit 2) rather than using it.
 */
#ifndef CZ_DAEMON_STATEDIR_H
#define CZ_DAEMON_STATEDIR_H

#include "cuzk/err.h"

/*
 * Makes sure path is a directory that only this user can change: made with mode 0700 when
 * missing (its parent must exist), else it must be a real directory (not a symbolic link), owned
 * by the effective user and not writable by group or others. Its parents are trusted, as
 * systemd's StateDirectory= under /var/lib is. CZ_EINVAL (naming the path and what is wrong) or
 * CZ_EIO (it cannot be made or looked at).
 */
int cz_daemon_private_dir(const char *path, cz_errinfo *ei);

#endif
