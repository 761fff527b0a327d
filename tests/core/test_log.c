/*
 * Logging: level filtering (and that a disabled macro does not evaluate its arguments), the
 * format of a line (timestamp checked against clock_gettime and timegm), level names, long
 * messages, and whole lines under concurrent writers.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cuzk/err.h"
#include "cuzk/log.h"
#include "test.h"

/* Reads the whole of f (from the start) into a malloc'd string. */
static char *slurp(FILE *f) {
    fflush(f);
    long len = ftell(f);
    char *s = malloc((size_t)len + 1);
    if (s == NULL)
        return NULL;
    rewind(f);
    size_t got = fread(s, 1, (size_t)len, f);
    s[got] = '\0';
    return s;
}

static size_t count_lines(const char *s) {
    size_t n = 0;
    for (; *s != '\0'; s++)
        n += *s == '\n';
    return n;
}

static void test_filtering(void) {
    FILE *f = tmpfile();
    CHECK(f != NULL);
    FILE *prev = cz_log_set_output(f);
    CHECK(prev == stderr);

    int evaluated = 0;
    cz_log_set_level(CZ_LOG_LEVEL_WARN);
    CHECK_EQ_INT(cz_log_get_level(), CZ_LOG_LEVEL_WARN);
    CZ_LOG_ERROR("e %d", 1);
    CZ_LOG_WARN("w %d", 2);
    CZ_LOG_INFO("i %d", evaluated++);
    CZ_LOG_DEBUG("d %d", evaluated++);
    CZ_LOG_TRACE("t %d", evaluated++);
    CHECK_EQ_INT(evaluated, 0);

    cz_log_set_level(CZ_LOG_LEVEL_TRACE);
    CZ_LOG_TRACE("t %d", evaluated++);
    CHECK_EQ_INT(evaluated, 1);

    cz_log_set_level(CZ_LOG_LEVEL_ERROR);
    CZ_LOG_WARN("hidden");
    CZ_LOG_ERROR("shown");

    char *s = slurp(f);
    CHECK(s != NULL);
    if (s != NULL) {
        CHECK_EQ_INT(count_lines(s), 4);
        CHECK(strstr(s, " ERROR e 1\n") != NULL);
        CHECK(strstr(s, " WARN  w 2\n") != NULL);
        CHECK(strstr(s, " TRACE t 0\n") != NULL);
        CHECK(strstr(s, " ERROR shown\n") != NULL);
        CHECK(strstr(s, "hidden") == NULL);
        CHECK(strstr(s, "i 0") == NULL && strstr(s, "d 0") == NULL);
    }
    free(s);

    /* Out-of-range levels are clamped. */
    cz_log_set_level((cz_log_level)99);
    CHECK_EQ_INT(cz_log_get_level(), CZ_LOG_LEVEL_TRACE);
    cz_log_set_level((cz_log_level)-3);
    CHECK_EQ_INT(cz_log_get_level(), CZ_LOG_LEVEL_ERROR);

    CHECK(cz_log_set_output(NULL) == f);
    CHECK(cz_log_set_output(NULL) == stderr);
    fclose(f);
}

static void test_line_format(void) {
    FILE *f = tmpfile();
    CHECK(f != NULL);
    cz_log_set_output(f);
    cz_log_set_level(CZ_LOG_LEVEL_INFO);
    struct timespec t0, t1;
    clock_gettime(CLOCK_REALTIME, &t0);
    CZ_LOG_INFO("hello %s %d\n", "world", 42); /* the trailing newline is not doubled */
    clock_gettime(CLOCK_REALTIME, &t1);
    cz_log_set_output(NULL);

    char *s = slurp(f);
    fclose(f);
    CHECK(s != NULL);
    if (s == NULL)
        return;
    /* 2026-11-29T19:10:00.123Z INFO  hello world 42\n */
    int year, mon, day, hour, min, sec, ms, used = 0;
    int n = sscanf(s, "%4d-%2d-%2dT%2d:%2d:%2d.%3dZ %n", &year, &mon, &day, &hour, &min, &sec, &ms,
                   &used);
    CHECK_EQ_INT(n, 7);
    CHECK_EQ_INT(used, 25);
    CHECK_EQ_INT(strlen(s), 25 + strlen("INFO  hello world 42\n"));
    CHECK_EQ_STR(s + 25, "INFO  hello world 42\n");
    CHECK(s[4] == '-' && s[7] == '-' && s[10] == 'T' && s[13] == ':' && s[16] == ':');
    CHECK(s[19] == '.' && s[23] == 'Z');
    CHECK(ms >= 0 && ms <= 999);

    /* The timestamp is UTC and lies between two readings of the clock, taken around the call. */
    struct tm tm = {0};
    tm.tm_year = year - 1900;
    tm.tm_mon = mon - 1;
    tm.tm_mday = day;
    tm.tm_hour = hour;
    tm.tm_min = min;
    tm.tm_sec = sec;
    time_t logged = timegm(&tm);
    CHECK(logged >= t0.tv_sec && logged <= t1.tv_sec);
    free(s);
}

static void test_names(void) {
    static const struct {
        const char *name;
        cz_log_level level;
    } ok[] = {{"error", CZ_LOG_LEVEL_ERROR},  {"warn", CZ_LOG_LEVEL_WARN},
              {"warning", CZ_LOG_LEVEL_WARN}, {"info", CZ_LOG_LEVEL_INFO},
              {"debug", CZ_LOG_LEVEL_DEBUG},  {"trace", CZ_LOG_LEVEL_TRACE},
              {"INFO", CZ_LOG_LEVEL_INFO},    {"Debug", CZ_LOG_LEVEL_DEBUG}};
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        cz_log_set_level(ok[i].level == CZ_LOG_LEVEL_ERROR ? CZ_LOG_LEVEL_TRACE
                                                           : CZ_LOG_LEVEL_ERROR);
        CHECK_ERR(cz_log_set_level_by_name(ok[i].name), CZ_OK);
        CHECK_EQ_INT(cz_log_get_level(), ok[i].level);
    }
    for (int l = CZ_LOG_LEVEL_ERROR; l <= CZ_LOG_LEVEL_TRACE; l++) {
        cz_log_level back = CZ_LOG_LEVEL_ERROR;
        CHECK_ERR(cz_log_level_parse(&back, cz_log_level_name((cz_log_level)l)), CZ_OK);
        CHECK_EQ_INT((int)back, l);
    }
    CHECK_EQ_STR(cz_log_level_name((cz_log_level)17), "?");

    static const char *const bad[] = {"",      "inf", "infos", "information", "warn ",
                                      " info", "2",   "err",   "fatal",       "trace\n"};
    cz_log_set_level(CZ_LOG_LEVEL_DEBUG);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        CHECK_ERR(cz_log_set_level_by_name(bad[i]), CZ_EINVAL);
        CHECK_EQ_INT(cz_log_get_level(), CZ_LOG_LEVEL_DEBUG);
    }
    CHECK_ERR(cz_log_set_level_by_name(NULL), CZ_EINVAL);
    cz_log_level untouched = CZ_LOG_LEVEL_WARN;
    CHECK_ERR(cz_log_level_parse(&untouched, "nope"), CZ_EINVAL);
    CHECK_EQ_INT(untouched, CZ_LOG_LEVEL_WARN);
}

static void test_long_message(void) {
    enum { LEN = 10000 };
    char *msg = malloc(LEN + 1);
    FILE *f = tmpfile();
    CHECK(msg != NULL && f != NULL);
    if (msg == NULL || f == NULL)
        return;
    for (size_t i = 0; i < LEN; i++)
        msg[i] = (char)('a' + i % 26);
    msg[LEN] = '\0';
    cz_log_set_output(f);
    cz_log_set_level(CZ_LOG_LEVEL_INFO);
    CZ_LOG_WARN("%s", msg);
    cz_log_set_output(NULL);
    char *s = slurp(f);
    fclose(f);
    CHECK(s != NULL);
    if (s != NULL) {
        CHECK_EQ_INT(strlen(s), 25 + 6 + LEN + 1);
        CHECK(strncmp(s + 31, msg, LEN) == 0);
        CHECK_EQ_INT(s[31 + LEN], '\n');
    }
    free(s);
    free(msg);
}

/* The escaping helper: control characters become \n, \r, \t or \xHH; the rest is copied;
 * the return is the full length, as snprintf's, also when dst is too small. */
static void test_escape(void) {
    char buf[64];
    const char in[] = "a\nb\r\tc\x01\x7f\\ \xc3\xa9";
    const char want[] = "a\\nb\\r\\tc\\x01\\x7f\\ \xc3\xa9";
    CHECK_EQ_INT(cz_log_escape(buf, sizeof buf, in, sizeof in - 1), sizeof want - 1);
    CHECK_EQ_STR(buf, want);
    CHECK_EQ_INT(cz_log_escape(NULL, 0, in, sizeof in - 1), sizeof want - 1);
    CHECK_EQ_INT(cz_log_escape(buf, 4, "a\nb", 3), 4);
    CHECK_EQ_STR(buf, "a\\n");
    CHECK_EQ_INT(cz_log_escape(buf, 3, "a\nb", 3), 4);
    CHECK_EQ_STR(buf, "a\\");
    CHECK_EQ_INT(cz_log_escape(buf, sizeof buf, "x\0y", 3), 6); /* a NUL within n too */
    CHECK_EQ_STR(buf, "x\\x00y");
}

/* A message with a newline (a client's job id) is one line, escaped: it cannot forge a second
 * line with a level of its own. */
static void test_one_line(void) {
    FILE *f = tmpfile();
    CHECK(f != NULL);
    if (f == NULL)
        return;
    cz_log_set_output(f);
    cz_log_set_level(CZ_LOG_LEVEL_INFO);
    CZ_LOG_ERROR("job %s: failed", "x\n2026-01-01T00:00:00.000Z INFO  forged\r");
    cz_log_set_output(NULL);
    char *s = slurp(f);
    fclose(f);
    CHECK(s != NULL);
    if (s != NULL) {
        CHECK(strchr(s, '\n') == s + strlen(s) - 1 && strchr(s, '\r') == NULL);
        CHECK(strstr(s, "ERROR job x\\n2026-01-01T00:00:00.000Z INFO  forged\\r: failed\n") !=
              NULL);
    }
    free(s);
}

enum { NWRITERS = 4, NLINES = 2000 };

static void *writer(void *arg) {
    int id = (int)(size_t)arg;
    /* Lines of varying length, some longer than the stack buffer. */
    static const char pad[] = "................................................................"
                              "................................................................";
    for (int i = 0; i < NLINES; i++)
        CZ_LOG_INFO("writer %d line %d %.*s end", id, i, (i * 7) % (int)(sizeof pad - 1), pad);
    for (int i = 0; i < 8; i++) {
        char big[3000];
        memset(big, 'x', sizeof big - 1);
        big[sizeof big - 1] = '\0';
        CZ_LOG_INFO("writer %d big %d %s end", id, i, big);
    }
    return NULL;
}

static void test_concurrent_lines(void) {
    FILE *f = tmpfile();
    CHECK(f != NULL);
    if (f == NULL)
        return;
    cz_log_set_output(f);
    cz_log_set_level(CZ_LOG_LEVEL_INFO);
    pthread_t t[NWRITERS];
    for (int i = 0; i < NWRITERS; i++)
        pthread_create(&t[i], NULL, writer, (void *)(size_t)i);
    for (int i = 0; i < NWRITERS; i++)
        pthread_join(t[i], NULL);
    cz_log_set_output(NULL);

    char *s = slurp(f);
    fclose(f);
    CHECK(s != NULL);
    if (s == NULL)
        return;
    /* Every line is whole: prefix, one message, " end"; each writer's lines arrive in order. */
    int next[NWRITERS] = {0}, nbig[NWRITERS] = {0};
    size_t nlines = 0, bad = 0;
    for (char *line = s, *eol; (eol = strchr(line, '\n')) != NULL; line = eol + 1) {
        *eol = '\0';
        nlines++;
        int id = -1, k = -1, used = 0;
        if (strlen(line) < 31 || strncmp(line + 25, "INFO  writer ", 13) != 0 ||
            strcmp(eol - 4, " end") != 0) {
            bad++;
            continue;
        }
        if (sscanf(line + 31, "writer %d line %d %n", &id, &k, &used) == 2 && id >= 0 &&
            id < NWRITERS) {
            if (k != next[id])
                bad++;
            next[id] = k + 1;
            if (strspn(line + 31 + used, ".") != (size_t)((k * 7) % 128))
                bad++;
        } else if (sscanf(line + 31, "writer %d big %d %n", &id, &k, &used) == 2 && id >= 0 &&
                   id < NWRITERS) {
            nbig[id]++;
            if (strspn(line + 31 + used, "x") != 2999)
                bad++;
        } else {
            bad++;
        }
    }
    CHECK_EQ_INT(bad, 0);
    CHECK_EQ_INT(nlines, NWRITERS * (NLINES + 8));
    for (int i = 0; i < NWRITERS; i++)
        CHECK(next[i] == NLINES && nbig[i] == 8);
    free(s);
}

static void teardown(void) {
    cz_log_set_level(CZ_LOG_LEVEL_INFO);
}

static const test_case cases[] = {
    {"filtering", test_filtering},
    {"line_format", test_line_format},
    {"names", test_names},
    {"long_message", test_long_message},
    {"escape", test_escape},
    {"one_line", test_one_line},
    {"concurrent_lines", test_concurrent_lines},
};

int main(int argc, char **argv) {
    return test_main_fixture(argc, argv, cases, TEST_COUNT(cases), NULL, teardown);
}
