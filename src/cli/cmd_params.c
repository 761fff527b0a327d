/*
 * `cuzk params list|check|digest`: Filecoin's parameter files (cuzk/params.h, docs/params.md).
 *
 * The directory is found as Filecoin's tools find it: the DIR argument, else the
 * FIL_PROOFS_PARAMETER_CACHE environment variable, else /var/tmp/filecoin-proof-parameters. The
 * library reads no environment; this file does, and passes the directory down.
 *
 * check hashes every file of the manifest that is present (missing ones are reported, not
 * fetched), largest last within each sector size as the manifest orders them, and shows progress
 * on stderr: a line rewritten in place on a terminal, otherwise a line at each quarter of a file
 * of 1 GiB or more (for logs). --manifest FILE (repeatable) checks against rust-fil-proofs-style
 * JSON manifests instead of the built-in one; their strings are owned here and freed at the end.
 */
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cuzk/clock.h"
#include "cuzk/params.h"

static const char params_help[] =
    "usage: cuzk params list [--json] [--sector-size SIZE]\n"
    "       cuzk params check [--quick] [--sector-size SIZE] [--manifest FILE]... [--json] [DIR]\n"
    "       cuzk params digest FILE...\n"
    "\n"
    "Filecoin's parameter files (.params proving keys, .vk verifying keys, the .srs), as\n"
    "rust-fil-proofs' parameters.json lists them (built in: `cuzk params list`).\n"
    "\n"
    "check: for each file of the manifest, whether it is in DIR, its size and whether its\n"
    "  digest (the first 32 hex digits of BLAKE2b-512 of the file) is the manifest's. Every\n"
    "  file present is read whole (the 32 and 64 GiB PoRep keys are 47 GB each: minutes).\n"
    "  DIR: the argument, else $FIL_PROOFS_PARAMETER_CACHE, else\n"
    "  /var/tmp/filecoin-proof-parameters.\n"
    "  --quick            hash only the verifying keys (KBs); .params and .srs: size only\n"
    "  --sector-size SIZE only the files of that sector size (2KiB, 8MiB, 512MiB, 32GiB,\n"
    "                     64GiB or bytes) and the SRS\n"
    "  --manifest FILE    check against FILE (parameters.json's format) instead; repeatable\n"
    "  --json             one JSON object on stdout instead of the table\n"
    "  Exit 0 when every file present that was hashed matches, 1 when one does not, 3 when\n"
    "  DIR or a file cannot be read. Missing files are listed and do not change the status.\n"
    "digest: prints each FILE's digest, as `fakeipfsadd` of fil-proofs-param does.\n";

/* ---- sizes ------------------------------------------------------------------------------- */

/* "2KiB", "32GiB", "any" (0): sector sizes are powers of two. */
static void sector_str(char *buf, size_t n, uint64_t s) {
    static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    int u = 0;
    if (s == 0) {
        snprintf(buf, n, "any");
        return;
    }
    while (u < 4 && s >= 1024 && s % 1024 == 0) {
        s /= 1024;
        u++;
    }
    snprintf(buf, n, "%llu%s", (unsigned long long)s, units[u]);
}

/* "20 B", "4.6 KiB", "44.2 GiB". */
static void bytes_str(char *buf, size_t n, uint64_t b) {
    static const char *const units[] = {"KiB", "MiB", "GiB", "TiB"};
    double v = (double)b;
    int u = -1;
    if (b < 1024) {
        snprintf(buf, n, "%llu B", (unsigned long long)b);
        return;
    }
    while (u < 3 && v >= 1024) {
        v /= 1024;
        u++;
    }
    snprintf(buf, n, "%.1f %s", v, units[u]);
}

/* ---- a manifest from JSON ------------------------------------------------------------------ */

typedef struct own_manifest {
    cz_param_manifest m;
    cz_param_file *files;
    size_t cap;
} own_manifest;

static void own_free(own_manifest *o) {
    for (size_t i = 0; i < o->m.nfiles; i++) {
        free((char *)o->files[i].name);
        free((char *)o->files[i].cid);
        free((char *)o->files[i].digest);
    }
    free(o->files);
    memset(o, 0, sizeof *o);
}

/* Adds the entries of the JSON manifest at path ({"NAME": {"cid": ..., "digest": ...,
 * "sector_size": ...}, ...}) to o. Messages name the file and the entry, never its text. */
static int own_read(own_manifest *o, const char *path, cz_errinfo *ei) {
    json_error_t jerr;
    json_t *root, *v;
    const char *name;
    size_t k = 0;
    int rc = CZ_OK;
    errno = 0;
    root = json_load_file(path, JSON_REJECT_DUPLICATES, &jerr);
    if (root == NULL) {
        if (jerr.line < 0)
            return cz_fail(ei, CZ_EIO, "%s: cannot open: %s", path,
                           errno != 0 ? strerror(errno) : "read error");
        return cz_fail(ei, CZ_EFORMAT, "%s:%d:%d: not valid JSON", path, jerr.line, jerr.column);
    }
    if (!json_is_object(root)) {
        json_decref(root);
        return cz_fail(ei, CZ_EFORMAT, "%s: expected an object of file names", path);
    }
    json_object_foreach(root, name, v) {
        json_t *cid = json_object_get(v, "cid"), *dg = json_object_get(v, "digest");
        json_t *ss = json_object_get(v, "sector_size");
        cz_param_file f = {0};
        char digest[CZ_PARAM_DIGEST_HEX + 1];
        const char *d;
        k++;
        if ((rc = cz_param_classify(&f.proof, &f.ext, name, ei)) != CZ_OK) {
            cz_fail(ei, rc, "%s: entry %zu", path, k);
            break;
        }
        d = json_string_value(dg);
        if (!json_is_object(v) || !json_is_string(cid) || d == NULL ||
            strlen(d) != CZ_PARAM_DIGEST_HEX ||
            strspn(d, "0123456789abcdefABCDEF") != CZ_PARAM_DIGEST_HEX || !json_is_integer(ss) ||
            json_integer_value(ss) < 0) {
            rc = cz_fail(ei, CZ_EFORMAT,
                         "%s: %s: expected {\"cid\": string, \"digest\": %d hex digits, "
                         "\"sector_size\": bytes}",
                         path, name, CZ_PARAM_DIGEST_HEX);
            break;
        }
        for (int i = 0; i <= CZ_PARAM_DIGEST_HEX; i++)
            digest[i] = (char)(d[i] >= 'A' && d[i] <= 'F' ? d[i] - 'A' + 'a' : d[i]);
        if (cz_params_find(&o->m, name) != NULL) {
            rc = cz_fail(ei, CZ_EFORMAT, "%s: %s: already in an earlier manifest", path, name);
            break;
        }
        if (o->m.nfiles == o->cap) {
            size_t cap = o->cap ? 2 * o->cap : 64;
            cz_param_file *nf = realloc(o->files, cap * sizeof *nf);
            if (nf == NULL) {
                rc = cz_fail(ei, CZ_ENOMEM, "%s: no memory for %zu entries", path, cap);
                break;
            }
            o->files = nf;
            o->cap = cap;
            o->m.files = nf;
        }
        f.sector_size = (uint64_t)json_integer_value(ss);
        f.name = strdup(name);
        f.cid = strdup(json_string_value(cid));
        f.digest = strdup(digest);
        o->files[o->m.nfiles++] = f;
        if (f.name == NULL || f.cid == NULL || f.digest == NULL) {
            rc = cz_fail(ei, CZ_ENOMEM, "%s: no memory", path);
            break;
        }
    }
    json_decref(root);
    return rc;
}

/* ---- progress ------------------------------------------------------------------------------ */

typedef struct progress {
    int tty;
    const char *name;
    uint64_t start_ns, shown_ns;
    int quarter; /* not a terminal: the last quarter reported */
} progress;

static int on_progress(void *arg, uint64_t done, uint64_t total) {
    progress *p = arg;
    char d[32], t[32];
    double s = cz_clock_elapsed_s(p->start_ns);
    double rate = s > 0 ? (double)done / s : 0;
    if (p->tty) {
        uint64_t now = cz_clock_now_ns();
        if (done != total && now - p->shown_ns < 250000000u)
            return 0;
        p->shown_ns = now;
        bytes_str(d, sizeof d, done);
        bytes_str(t, sizeof t, total);
        fprintf(stderr, "\r\033[Khashing %.40s...: %s of %s, %.0f MB/s", p->name, d, t, rate / 1e6);
        return 0;
    }
    if (total >= (1ULL << 30) && done * 4 / total > (uint64_t)p->quarter) {
        p->quarter = (int)(done * 4 / total);
        bytes_str(t, sizeof t, total);
        fprintf(stderr, "cuzk params: %s: %d%% of %s, %.0f MB/s\n", p->name, p->quarter * 25, t,
                rate / 1e6);
    }
    return 0;
}

/* ---- the subcommands ----------------------------------------------------------------------- */

/* The table's word for a state, and the JSON's. */
static const char *state_name(cz_param_state s, int json) {
    switch (s) {
    case CZ_PARAM_MISSING:
        return "missing";
    case CZ_PARAM_PRESENT:
        return "present";
    case CZ_PARAM_MATCH:
        return json ? "match" : "ok";
    case CZ_PARAM_MISMATCH:
        return json ? "mismatch" : "MISMATCH";
    case CZ_PARAM_UNREADABLE:
        break;
    }
    return json ? "unreadable" : "UNREADABLE";
}

/* Whether f is selected by --sector-size (0 = all): the SRS serves every size. */
static int selected(const cz_param_file *f, uint64_t sector_size) {
    return sector_size == 0 || f->sector_size == sector_size || f->sector_size == 0;
}

static int cmd_list(const cz_param_manifest *m, uint64_t sector_size, int json) {
    json_t *arr = json ? json_array() : NULL;
    for (size_t i = 0; i < m->nfiles; i++) {
        const cz_param_file *f = &m->files[i];
        char ss[32];
        if (!selected(f, sector_size))
            continue;
        sector_str(ss, sizeof ss, f->sector_size);
        if (arr != NULL)
            json_array_append_new(arr, json_pack("{s:s, s:s, s:s, s:I, s:s, s:s}", "name", f->name,
                                                 "cid", f->cid, "digest", f->digest, "sector_size",
                                                 (json_int_t)f->sector_size, "proof",
                                                 cz_param_proof_name(f->proof), "type",
                                                 cz_param_ext_name(f->ext)));
        else
            printf("%-6s  %-15s  %-6s  %s  %s\n", ss, cz_param_proof_name(f->proof),
                   cz_param_ext_name(f->ext), f->digest, f->name);
    }
    if (arr != NULL) {
        json_dumpf(arr, stdout, JSON_INDENT(2));
        printf("\n");
        json_decref(arr);
    }
    return CZ_EXIT_OK;
}

/* The directory to check and where it came from (for the messages). */
static const char *resolve_dir(const char *arg, const char **from) {
    const char *env = getenv(CZ_PARAMS_ENV);
    if (arg != NULL) {
        *from = "the argument";
        return arg;
    }
    if (env != NULL && env[0] != '\0') {
        *from = CZ_PARAMS_ENV;
        return env;
    }
    *from = "the default; " CZ_PARAMS_ENV " is not set";
    return CZ_PARAMS_DEFAULT_DIR;
}

static int cmd_check(const cz_param_manifest *m, const char *dir_arg, uint64_t sector_size,
                     int quick, int json) {
    const char *from, *dir = resolve_dir(dir_arg, &from);
    size_t npresent = 0, nmatch = 0, nmismatch = 0, nunreadable = 0, nmissing = 0, nknown = 0;
    json_t *files = json ? json_array() : NULL;
    struct stat sb;
    int tty = isatty(STDERR_FILENO);
    int found = stat(dir, &sb) == 0;
    if (!found || !S_ISDIR(sb.st_mode)) {
        const char *why = found             ? "not a directory"
                          : errno == ENOENT ? "no such directory"
                                            : strerror(errno);
        cz_errinfo ei;
        cz_errinfo_clear(&ei);
        cz_fail(&ei, found ? CZ_EIO : CZ_ENOTFOUND, "%s: %s (the parameter directory, from %s)",
                dir, why, from);
        json_decref(files);
        return cz__cli_report("params", &ei);
    }
    if (!json)
        printf("# %s (%s)\n", dir, from);
    for (size_t i = 0; i < m->nfiles; i++) {
        const cz_param_file *f = &m->files[i];
        int hash = !quick || f->ext == CZ_PARAM_EXT_VK;
        progress p = {tty, f->name, cz_clock_now_ns(), 0, 0};
        cz_param_status st;
        cz_errinfo ei;
        char size[32] = "-", ss[32];
        if (!selected(f, sector_size))
            continue;
        nknown++;
        cz_errinfo_clear(&ei);
        cz_params_check(&st, dir, f, hash, on_progress, &p, &ei);
        if (tty && p.shown_ns != 0)
            fprintf(stderr, "\r\033[K");
        nmissing += st.state == CZ_PARAM_MISSING;
        npresent += st.state != CZ_PARAM_MISSING && st.state != CZ_PARAM_UNREADABLE;
        nmatch += st.state == CZ_PARAM_MATCH;
        nmismatch += st.state == CZ_PARAM_MISMATCH;
        nunreadable += st.state == CZ_PARAM_UNREADABLE;
        sector_str(ss, sizeof ss, f->sector_size);
        if (files != NULL) {
            json_t *o = json_pack("{s:s, s:s, s:s, s:s, s:I, s:s}", "name", f->name, "state",
                                  state_name(st.state, 1), "proof", cz_param_proof_name(f->proof),
                                  "type", cz_param_ext_name(f->ext), "sector_size",
                                  (json_int_t)f->sector_size, "expected", f->digest);
            if (st.state != CZ_PARAM_MISSING && st.state != CZ_PARAM_UNREADABLE)
                json_object_set_new(o, "size", json_integer((json_int_t)st.size));
            if (st.digest[0] != '\0')
                json_object_set_new(o, "digest", json_string(st.digest));
            if (st.state == CZ_PARAM_UNREADABLE)
                json_object_set_new(o, "error", json_string(ei.msg));
            json_array_append_new(files, o);
            continue;
        }
        if (st.state != CZ_PARAM_MISSING && st.state != CZ_PARAM_UNREADABLE)
            bytes_str(size, sizeof size, st.size);
        printf("%-10s  %9s  %-6s  %-15s  %-6s  %s", state_name(st.state, 0), size, ss,
               cz_param_proof_name(f->proof), cz_param_ext_name(f->ext), f->name);
        if (st.state == CZ_PARAM_MISMATCH)
            printf(": digest %s, the manifest says %s", st.digest, f->digest);
        else if (st.state == CZ_PARAM_PRESENT)
            printf(": not hashed (--quick)");
        printf("\n");
        if (st.state == CZ_PARAM_UNREADABLE)
            cz__cli_report("params", &ei);
    }
    if (files != NULL) {
        json_t *root = json_pack("{s:s, s:o, s:b}", "dir", dir, "files", files, "ok",
                                 nmismatch == 0 && nunreadable == 0);
        json_dumpf(root, stdout, JSON_INDENT(2));
        printf("\n");
        json_decref(root);
    } else {
        printf("# %zu known: %zu present (%zu match, %zu do not", nknown, npresent, nmatch,
               nmismatch);
        if (quick)
            printf(", %zu not hashed", npresent - nmatch - nmismatch);
        printf("), %zu missing", nmissing);
        if (nunreadable > 0)
            printf(", %zu unreadable", nunreadable);
        printf("\n");
    }
    return nmismatch > 0 ? CZ_EXIT_INVALID : nunreadable > 0 ? CZ_EXIT_INPUT : CZ_EXIT_OK;
}

static int cmd_digest(int nfiles, char **files) {
    int exit_code = CZ_EXIT_OK, tty = isatty(STDERR_FILENO);
    for (int i = 0; i < nfiles; i++) {
        char digest[CZ_PARAM_DIGEST_HEX + 1];
        progress p = {tty, files[i], cz_clock_now_ns(), 0, 0};
        cz_errinfo ei;
        cz_errinfo_clear(&ei);
        int rc = cz_params_digest_file(digest, NULL, files[i], on_progress, &p, &ei);
        if (tty && p.shown_ns != 0)
            fprintf(stderr, "\r\033[K");
        if (rc != CZ_OK)
            exit_code = cz__cli_report("params digest", &ei);
        else
            printf("%s  %s\n", digest, files[i]);
    }
    return exit_code;
}

int cz__cli_params(int argc, char **argv) {
    own_manifest own = {0};
    const char *dir = NULL, *sub;
    uint64_t sector_size = 0;
    int quick = 0, json = 0, rc = CZ_EXIT_OK, npos = 0, have_manifest = 0;
    char **pos = NULL;
    cz_errinfo ei;
    if (argc < 2) {
        fputs(params_help, stderr);
        return CZ_EXIT_USAGE;
    }
    sub = argv[1];
    if (strcmp(sub, "--help") == 0 || strcmp(sub, "-h") == 0) {
        fputs(params_help, stdout);
        return CZ_EXIT_OK;
    }
    if (strcmp(sub, "list") != 0 && strcmp(sub, "check") != 0 && strcmp(sub, "digest") != 0)
        return cz__cli_usage_error("params", "unknown subcommand '%s' (list, check, digest)", sub);
    if ((pos = calloc((size_t)argc, sizeof *pos)) == NULL) {
        fprintf(stderr, "cuzk params: out of memory\n");
        return CZ_EXIT_INTERNAL;
    }
    cz_errinfo_clear(&ei);
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i];
        int is_digest = strcmp(sub, "digest") == 0;
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            fputs(params_help, stdout);
            goto out;
        } else if (!is_digest && strcmp(a, "--json") == 0) {
            json = 1;
        } else if (strcmp(sub, "check") == 0 && strcmp(a, "--quick") == 0) {
            quick = 1;
        } else if (!is_digest && strcmp(a, "--sector-size") == 0) {
            if (i + 1 == argc || cz__cli_parse_sector_size(&sector_size, argv[i + 1]) != CZ_OK ||
                sector_size == 0) {
                rc = cz__cli_usage_error("params", "--sector-size needs a size (2KiB, 32GiB, ...)");
                goto out;
            }
            i++;
        } else if (strcmp(sub, "check") == 0 && strcmp(a, "--manifest") == 0) {
            if (i + 1 == argc) {
                rc = cz__cli_usage_error("params", "--manifest needs a file");
                goto out;
            }
            have_manifest = 1;
            if (own_read(&own, argv[++i], &ei) != CZ_OK) {
                rc = cz__cli_report("params", &ei);
                goto out;
            }
        } else if (a[0] == '-' && a[1] != '\0') {
            rc = cz__cli_usage_error("params", "unknown option '%s' for %s", a, sub);
            goto out;
        } else {
            pos[npos++] = argv[i];
        }
    }
    if (strcmp(sub, "digest") == 0) {
        rc = npos == 0 ? cz__cli_usage_error("params", "digest needs one or more files")
                       : cmd_digest(npos, pos);
    } else if (strcmp(sub, "list") == 0) {
        rc = npos != 0 ? cz__cli_usage_error("params", "list takes no file arguments")
                       : cmd_list(cz_params_builtin(), sector_size, json);
    } else if (npos > 1) {
        rc = cz__cli_usage_error("params", "check takes one directory at most");
    } else {
        if (npos == 1)
            dir = pos[0];
        rc = cmd_check(have_manifest ? &own.m : cz_params_builtin(), dir, sector_size, quick, json);
    }
out:
    own_free(&own);
    free(pos);
    return rc;
}
