/*
 * The digests of the Filecoin key files the daemon has hashed, remembered across restarts in a
 * file of its private state directory (<daemon.state_dir>/key-digests), so that a restart does not
 * read every key again (the 47 GB 32 GiB PoRep key: 85 s). A remembered digest is used only for
 * the version of the file that was hashed: the same device, inode, size, modification time and
 * change time (the change time follows every write and cannot be set back by the file's owner).
 * The directory is private to the daemon's user (statedir.h), so its entries are trusted as the
 * daemon's own work.
 *
 * The file is text, one line per key: the digest (CZ_PARAM_DIGEST_HEX hex digits), the five
 * numbers of the version, the key's path (the rest of the line). An unreadable or malformed file
 * is as good as an empty one: the keys are hashed again and the file rewritten.
 */
#ifndef CZ_DAEMON_KEYDIGESTS_H
#define CZ_DAEMON_KEYDIGESTS_H

#include <sys/stat.h>

#include "cuzk/err.h"
#include "cuzk/params.h"

/* The version of key_path now (stat, following links) into *st: 0, or -1 (errno set). */
int cz_daemon_key_version(struct stat *st, const char *key_path);

/* The digest remembered in the file at store for key_path in version st: 1 with digest filled,
 * 0 when there is none (no file, no line for the path, another version). */
int cz_daemon_key_digest_find(char digest[CZ_PARAM_DIGEST_HEX + 1], const char *store,
                              const char *key_path, const struct stat *st);

/* Remembers digest for key_path in version before (taken before hashing it): nothing is stored
 * when the file is not that version any more. The file is rewritten (a temporary file renamed
 * over it) with the other paths' lines kept. CZ_EIO naming the file; CZ_EINVAL for a path with a
 * line break. Calls must not overlap for one store (the caller's lock). */
int cz_daemon_key_digest_store(const char *store, const char *key_path, const struct stat *before,
                               const char *digest, cz_errinfo *ei);

#endif
