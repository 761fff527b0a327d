/*
 * Filecoin's parameter files (cuzk/params.h).
 *
 * The built-in table against the JSON manifests it was generated from (params/parameters.json and
 * srs-inner-product.json, read here with jansson, not by the generator's Python): the same names,
 * CIDs, digests and sector sizes, nothing more; the facts the research notes give (the 2 KiB PoRep
 * verifying key's digest); one Winning and one Window PoSt per sector size, and one entry per
 * (proof, sector size, type). Names classified by prefix and extension; malformed names refused
 * with their name.
 *
 * The file digest against Node's crypto (tests/vectors/blake2b_vectors.mjs): the 3 MiB vector
 * stream and that stream written 7 times over (21 MiB, three 8 MiB reads), each digest the first
 * 32 hex digits of Node's BLAKE2b-512; progress reports; a stop asked by the callback; a FIFO, a
 * directory and a missing path refused (an alarm fails the test if a FIFO blocks it).
 *
 * cz_params_check in a temporary directory: a file named like a known .vk with other content is a
 * mismatch naming both digests; a manifest of our own whose digest is Node's is a match; missing,
 * present without hashing, a directory at the name.
 */
#include <jansson.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cuzk/fileio.h"
#include "cuzk/params.h"
#include "test.h"

#define VECTORS_DIR "tests/vectors/out/blake2b/"
#define STREAM_LEN  (3u << 20)

static char dir[] = "/tmp/cuzk-params-XXXXXX";
static uint8_t *stream;
static size_t stream_len;
/* Node's BLAKE2b-512 (hex) of the stream, and of the stream repeated. */
static char node_stream[129], node_repeat[129];
static unsigned repeat_copies;
static unsigned long long repeat_bytes;

static void test_table_is_the_json(void) {
    static const char *const files[] = {"params/parameters.json", "params/srs-inner-product.json"};
    const cz_param_manifest *m = cz_params_builtin();
    size_t total = 0;
    for (size_t k = 0; k < 2; k++) {
        json_error_t jerr;
        json_t *root = json_load_file(files[k], 0, &jerr), *v;
        const char *name;
        if (!CHECK(json_is_object(root))) {
            fprintf(stderr, "%s: %s\n", files[k], jerr.text);
            continue;
        }
        json_object_foreach(root, name, v) {
            const cz_param_file *f = cz_params_find(NULL, name);
            total++;
            if (!CHECK(f != NULL)) {
                fprintf(stderr, "  %s: not in the built-in table\n", name);
                continue;
            }
            CHECK_EQ_STR(f->cid, json_string_value(json_object_get(v, "cid")));
            CHECK_EQ_STR(f->digest, json_string_value(json_object_get(v, "digest")));
            CHECK(json_is_integer(json_object_get(v, "sector_size")));
            CHECK_EQ_U64(f->sector_size,
                         (uint64_t)json_integer_value(json_object_get(v, "sector_size")));
            CHECK_EQ_SIZE(json_object_size(v), 3);
        }
        json_decref(root);
    }
    CHECK_EQ_SIZE(m->nfiles, total);
    CHECK_EQ_SIZE(total, 45); /* rust-fil-proofs v28: 44 keys and the SRS */
    /* Names are unique, so find never hides a second entry. */
    for (size_t i = 0; i < m->nfiles; i++)
        CHECK(cz_params_find(m, m->files[i].name) == &m->files[i]);
}

static void test_known_facts(void) {
    /* The 2 KiB PoRep verifying key (shared/research/porep.md §1.7). */
    const cz_param_file *f =
        cz_params_find_proof(NULL, CZ_PARAM_PROOF_POREP, 2048, CZ_PARAM_EXT_VK);
    if (CHECK(f != NULL)) {
        CHECK_EQ_STR(f->name, "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-"
                              "sha256_hasher-032d3138d22506ec0082ed72b2dcba18df18477904e35bafee82"
                              "b3793b06832f.vk");
        CHECK_EQ_STR(f->digest, "dc1ade9929ade1708238f155343044ac");
    }
    f = cz_params_find(NULL, "v28-fil-inner-product-v1.srs");
    if (CHECK(f != NULL)) {
        CHECK_EQ_INT(f->proof, CZ_PARAM_PROOF_AGGREGATION);
        CHECK_EQ_INT(f->ext, CZ_PARAM_EXT_SRS);
        CHECK_EQ_U64(f->sector_size, 0);
    }
    CHECK(cz_params_find(NULL, "v28-no-such-file.params") == NULL);
}

/* Every proof has a .params and a .vk for each of the five sector sizes (SnapDeals' Poseidon
 * variant only for 32 and 64 GiB), exactly one each; the table's order is by sector size. */
static void test_one_per_kind(void) {
    static const uint64_t sizes[] = {2048, 8ULL << 20, 512ULL << 20, 32ULL << 30, 64ULL << 30};
    static const cz_param_proof proofs[] = {CZ_PARAM_PROOF_POREP, CZ_PARAM_PROOF_WINNING_POST,
                                            CZ_PARAM_PROOF_WINDOW_POST, CZ_PARAM_PROOF_UPDATE,
                                            CZ_PARAM_PROOF_UPDATE_POSEIDON};
    const cz_param_manifest *m = cz_params_builtin();
    for (size_t s = 0; s < 5; s++)
        for (size_t p = 0; p < 5; p++)
            for (int e = CZ_PARAM_EXT_PARAMS; e <= CZ_PARAM_EXT_VK; e++) {
                size_t n = 0;
                for (size_t i = 0; i < m->nfiles; i++)
                    n += m->files[i].proof == proofs[p] && m->files[i].sector_size == sizes[s] &&
                         (int)m->files[i].ext == e;
                CHECK_EQ_SIZE(n, proofs[p] == CZ_PARAM_PROOF_UPDATE_POSEIDON && s < 3 ? 0 : 1);
            }
    for (size_t i = 1; i + 1 < m->nfiles; i++)
        CHECK(m->files[i - 1].sector_size <= m->files[i].sector_size);
    /* Each name says what the table says. */
    for (size_t i = 0; i < m->nfiles; i++) {
        const cz_param_file *f = &m->files[i];
        const char *x = f->ext == CZ_PARAM_EXT_VK    ? ".vk"
                        : f->ext == CZ_PARAM_EXT_SRS ? ".srs"
                                                     : ".params";
        size_t len = strlen(f->name);
        CHECK(len > strlen(x) && strcmp(f->name + len - strlen(x), x) == 0);
        CHECK(strncmp(f->name, "v28-", 4) == 0);
        if (f->proof == CZ_PARAM_PROOF_WINNING_POST || f->proof == CZ_PARAM_PROOF_WINDOW_POST)
            CHECK(strncmp(f->name + 4, "proof-of-spacetime-fallback-", 28) == 0);
        CHECK_EQ_SIZE(strlen(f->digest), CZ_PARAM_DIGEST_HEX);
        CHECK_EQ_SIZE(strspn(f->digest, "0123456789abcdef"), CZ_PARAM_DIGEST_HEX);
    }
}

static void test_classify(void) {
    static const struct {
        const char *name;
        cz_param_proof proof;
        cz_param_ext ext;
    } ok[] = {
        {"v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-8-0-"
         "0377ded656c6f524f1618760bffe4e0a1c51d5a70c4509eedae8a27555733edc.params",
         CZ_PARAM_PROOF_WINDOW_POST, CZ_PARAM_EXT_PARAMS}, /* known: from the table */
        {"v29-proof-of-spacetime-fallback-x.vk", CZ_PARAM_PROOF_POST, CZ_PARAM_EXT_VK},
        {"v28-stacked-proof-of-replication-y.params", CZ_PARAM_PROOF_POREP, CZ_PARAM_EXT_PARAMS},
        {"v28-empty-sector-update-poseidon-z.vk", CZ_PARAM_PROOF_UPDATE_POSEIDON, CZ_PARAM_EXT_VK},
        {"v28-empty-sector-update-z.vk", CZ_PARAM_PROOF_UPDATE, CZ_PARAM_EXT_VK},
        {"v30-fil-inner-product-v2.srs", CZ_PARAM_PROOF_AGGREGATION, CZ_PARAM_EXT_SRS},
        {"v28-something-new.params", CZ_PARAM_PROOF_UNKNOWN, CZ_PARAM_EXT_PARAMS},
    };
    static const char *const bad[] = {
        "v28-x.meta", "28-x.params", "v-x.params", "vx-a.vk", "v28.vk", ".params", ""};
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        cz_param_proof p;
        cz_param_ext e;
        CHECK_ERR(cz_param_classify(&p, &e, ok[i].name, NULL), CZ_OK);
        CHECK_EQ_STR(cz_param_proof_name(p), cz_param_proof_name(ok[i].proof));
        CHECK_EQ_STR(cz_param_ext_name(e), cz_param_ext_name(ok[i].ext));
    }
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        cz_param_proof p;
        cz_param_ext e;
        cz_errinfo ei;
        cz_errinfo_clear(&ei);
        CHECK_ERR(cz_param_classify(&p, &e, bad[i], &ei), CZ_EFORMAT);
        CHECK(strncmp(ei.msg, bad[i], strlen(bad[i])) == 0 && strstr(ei.msg, "not a parameter"));
    }
    /* Not one plain path component: refused, and the message does not repeat the name. */
    static const char *const unsafe[] = {"v28-../../etc/x.params", "v28-a/b.vk",
                                         "v28-x\nFAKE: ok.vk", "v28-\x1b[2Jx.params"};
    for (size_t i = 0; i < sizeof unsafe / sizeof unsafe[0]; i++) {
        cz_param_proof p;
        cz_param_ext e;
        cz_errinfo ei;
        cz_errinfo_clear(&ei);
        CHECK_ERR(cz_param_classify(&p, &e, unsafe[i], &ei), CZ_EFORMAT);
        CHECK(strstr(ei.msg, "v28-") == NULL && strstr(ei.msg, "not a parameter file name"));
    }
}

static void write_file(const char *path, const void *data, size_t len, unsigned copies) {
    FILE *f = fopen(path, "wb");
    CHECK(f != NULL);
    for (unsigned i = 0; f != NULL && i < copies; i++)
        CHECK(fwrite(data, 1, len, f) == len);
    if (f != NULL)
        CHECK(fclose(f) == 0);
}

typedef struct progress_log {
    unsigned calls;
    uint64_t last, total;
    int monotonic;
    unsigned stop_after; /* 0: never */
} progress_log;

static int on_progress(void *arg, uint64_t done, uint64_t total) {
    progress_log *p = arg;
    p->monotonic &= done > p->last && done <= total;
    p->last = done;
    p->total = total;
    return ++p->calls == p->stop_after;
}

static void test_digest_file(void) {
    char path[128], digest[CZ_PARAM_DIGEST_HEX + 1];
    uint64_t size = 0;
    cz_errinfo ei;
    if (!CHECK(stream != NULL && repeat_copies > 0))
        return;
    /* The stream itself, as the vector script wrote it. */
    CHECK_ERR(cz_params_digest_file(digest, &size, VECTORS_DIR "stream.bin", NULL, NULL, &ei),
              CZ_OK);
    CHECK_EQ_U64(size, STREAM_LEN);
    CHECK(strncmp(digest, node_stream, CZ_PARAM_DIGEST_HEX) == 0 &&
          strlen(digest) == CZ_PARAM_DIGEST_HEX);
    /* 21 MiB: the read loop's three reads, with progress. */
    snprintf(path, sizeof path, "%s/repeat.bin", dir);
    write_file(path, stream, stream_len, repeat_copies);
    progress_log log = {0, 0, 0, 1, 0};
    CHECK_ERR(cz_params_digest_file(digest, &size, path, on_progress, &log, &ei), CZ_OK);
    CHECK_EQ_U64(size, repeat_bytes);
    CHECK(strncmp(digest, node_repeat, CZ_PARAM_DIGEST_HEX) == 0);
    CHECK(log.calls >= 3 && log.monotonic);
    CHECK_EQ_U64(log.last, repeat_bytes);
    CHECK_EQ_U64(log.total, repeat_bytes);
    /* The callback stops it. */
    progress_log stop = {0, 0, 0, 1, 2};
    cz_errinfo_clear(&ei);
    CHECK_ERR(cz_params_digest_file(digest, &size, path, on_progress, &stop, &ei), CZ_ECANCELED);
    CHECK(stop.calls == 2 && digest[0] == '\0' && size == 0 && strstr(ei.msg, path) != NULL);
    /* An empty file: BLAKE2b-512 of nothing (786a02f7...). */
    snprintf(path, sizeof path, "%s/empty", dir);
    write_file(path, "", 0, 1);
    CHECK_ERR(cz_params_digest_file(digest, &size, path, NULL, NULL, &ei), CZ_OK);
    CHECK_EQ_STR(digest, "786a02f742015903c6c6fd852552d272");
    CHECK_EQ_U64(size, 0);
}

static void test_digest_refused(void) {
    char fifo[96], digest[CZ_PARAM_DIGEST_HEX + 1];
    snprintf(fifo, sizeof fifo, "%s/fifo", dir);
    CHECK(mkfifo(fifo, 0600) == 0);
    struct {
        const char *path, *why;
    } bad[] = {{fifo, "not a regular file (a FIFO)"},
               {dir, "not a regular file (a directory)"},
               {"/nonexistent/cuzk-params", "No such file or directory"}};
    test_watchdog(10, "cz_params_digest_file on a FIFO");
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        cz_errinfo ei;
        uint64_t size = 1;
        cz_errinfo_clear(&ei);
        CHECK_ERR(cz_params_digest_file(digest, &size, bad[i].path, NULL, NULL, &ei), CZ_EIO);
        CHECK(size == 0 && digest[0] == '\0');
        CHECK(strstr(ei.msg, bad[i].path) != NULL && strstr(ei.msg, bad[i].why) != NULL);
    }
    test_watchdog(0, NULL);
    unlink(fifo);
}

static void test_check_dir(void) {
    const cz_param_file *vk =
        cz_params_find_proof(NULL, CZ_PARAM_PROOF_WINNING_POST, 2048, CZ_PARAM_EXT_VK);
    char path[512], slash[64];
    cz_param_status st;
    cz_errinfo ei;
    if (!CHECK(vk != NULL && stream != NULL))
        return;
    /* Missing. */
    cz_errinfo_clear(&ei);
    CHECK_ERR(cz_params_check(&st, dir, vk, 1, NULL, NULL, &ei), CZ_ENOTFOUND);
    CHECK_EQ_INT(st.state, CZ_PARAM_MISSING);
    CHECK(strstr(ei.msg, vk->name) != NULL && strstr(ei.msg, "missing") != NULL);
    /* Named like the known key, other bytes: a mismatch giving both digests. */
    snprintf(path, sizeof path, "%s/%s", dir, vk->name);
    write_file(path, "not a verifying key\n", 20, 1);
    cz_errinfo_clear(&ei);
    CHECK_ERR(cz_params_check(&st, dir, vk, 1, NULL, NULL, &ei), CZ_EVERIFY);
    CHECK_EQ_INT(st.state, CZ_PARAM_MISMATCH);
    CHECK_EQ_U64(st.size, 20);
    CHECK(strstr(ei.msg, path) != NULL && strstr(ei.msg, vk->digest) != NULL &&
          strstr(ei.msg, st.digest) != NULL && strlen(st.digest) == CZ_PARAM_DIGEST_HEX);
    /* Without hashing: present, with its size; the directory given with a trailing slash. */
    snprintf(slash, sizeof slash, "%s/", dir);
    CHECK_ERR(cz_params_check(&st, slash, vk, 0, NULL, NULL, NULL), CZ_OK);
    CHECK_EQ_INT(st.state, CZ_PARAM_PRESENT);
    CHECK_EQ_U64(st.size, 20);
    CHECK_EQ_STR(st.digest, "");
    /* A manifest of our own whose digest is Node's: a match. */
    char want[CZ_PARAM_DIGEST_HEX + 1];
    memcpy(want, node_stream, CZ_PARAM_DIGEST_HEX);
    want[CZ_PARAM_DIGEST_HEX] = '\0';
    cz_param_file own = {"v28-test-stream.vk", "-", want, 2048, CZ_PARAM_PROOF_UNKNOWN,
                         CZ_PARAM_EXT_VK};
    snprintf(path, sizeof path, "%s/%s", dir, own.name);
    write_file(path, stream, stream_len, 1);
    CHECK_ERR(cz_params_check(&st, slash, &own, 1, NULL, NULL, &ei), CZ_OK);
    CHECK_EQ_INT(st.state, CZ_PARAM_MATCH);
    CHECK_EQ_STR(st.digest, want);
    CHECK_EQ_U64(st.size, STREAM_LEN);
    /* A directory where the file should be. */
    own.name = "v28-test-dir.params";
    snprintf(path, sizeof path, "%s/%s", dir, own.name);
    CHECK(mkdir(path, 0700) == 0);
    cz_errinfo_clear(&ei);
    CHECK_ERR(cz_params_check(&st, dir, &own, 0, NULL, NULL, &ei), CZ_EIO);
    CHECK_EQ_INT(st.state, CZ_PARAM_UNREADABLE);
    CHECK(strstr(ei.msg, "not a regular file (a directory)") != NULL);
}

static int setup(void) {
    void *data = NULL;
    cz_errinfo ei;
    FILE *f;
    if (mkdtemp(dir) == NULL)
        return 1;
    if (cz_file_read(&data, &stream_len, VECTORS_DIR "stream.bin", &ei) == CZ_OK)
        stream = data;
    else
        fprintf(stderr, "%s (run make vectors)\n", ei.msg);
    /* Node's digest of the whole stream: its line in vectors.txt. */
    if ((f = fopen(VECTORS_DIR "vectors.txt", "r")) != NULL) {
        char line[1024];
        while (fgets(line, sizeof line, f))
            if (sscanf(line, "node 64 - 0 3145728 %128s", node_stream) == 1)
                break;
        fclose(f);
    }
    if ((f = fopen(VECTORS_DIR "repeat.txt", "r")) != NULL) {
        if (fscanf(f, "%u %llu %128s", &repeat_copies, &repeat_bytes, node_repeat) != 3 ||
            repeat_bytes != (unsigned long long)repeat_copies * STREAM_LEN)
            repeat_copies = 0;
        fclose(f);
    }
    if (stream_len != STREAM_LEN || strlen(node_stream) != 128 || repeat_copies == 0)
        fprintf(stderr, "tests/vectors/out/blake2b is missing or incomplete: run make vectors\n");
    return 0;
}

static void teardown(void) {
    char cmd[64];
    free(stream);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
}

static const test_case cases[] = {
    {"table_is_the_json", test_table_is_the_json},
    {"known_facts", test_known_facts},
    {"one_per_kind", test_one_per_kind},
    {"classify", test_classify},
    {"digest_file", test_digest_file},
    {"digest_refused", test_digest_refused},
    {"check", test_check_dir},
};

int main(int argc, char **argv) {
    return test_main_fixture(argc, argv, cases, TEST_COUNT(cases), setup, teardown);
}
