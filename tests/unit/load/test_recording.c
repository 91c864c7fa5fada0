/*
 * test_recording.c - core/load/recording.c: times and durations as Go
 * reads them, and a recording read back as it was at a moment: the
 * newest snapshot at or before it, the changes after it in order, what
 * was deleted in explain's window restored, a line cut by a crash.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "check.h"
#include "recording.h"
#include "tmpdir.h"

static void
write_file(const char *name, const char *text)
{
    char p[512];
    FILE *f;

    snprintf(p, sizeof(p), "%s/%s", tmpdir, name);
    f = fopen(p, "w");
    fputs(text, f);
    fclose(f);
}

static long long
ms_of(const char *t)
{
    long long ms = -1;
    struct kp_error e;

    if (kp_parse_time("at", t, &ms, &e) < 0)
        return -1;
    return ms;
}

static void
test_times(void)
{
    struct kp_error e;
    long long ms;
    char buf[40];

    CHECK_EQ_INT(ms_of("1970-01-01T00:00:01Z"), 1000);
    CHECK_EQ_INT(ms_of("1970-01-01T00:00:01.5Z"), 1500);
    CHECK_EQ_INT(ms_of("1970-01-01T01:00:00+01:00"), 0);
    CHECK_EQ_INT(ms_of("1970-01-01T00:00:00-00:30"), 1800000);
    CHECK_EQ_INT(ms_of("1970-01-01 00:00:00Z"), -1);    /* Go refuses */
    CHECK_EQ_INT(ms_of("1970-02-30T00:00:00Z"), -1);
    CHECK_EQ_INT(ms_of("1970-01-01T00:00:00"), -1);     /* no zone */
    CHECK(kp_parse_time("at", "yesterday", &ms, &e) < 0);
    CHECK(strstr(e.msg, "--at") != NULL);
    kp_recording_stamp(1500, buf, sizeof(buf));
    CHECK_EQ_STR(buf, "19700101T000001.500Z");
    CHECK(kp_recording_parse_stamp(buf, &ms) == 0);
    CHECK_EQ_INT(ms, 1500);
    CHECK(kp_recording_parse_stamp("19700101T000001.500", &ms) < 0);
    kp_recording_time(1500, buf, sizeof(buf));
    CHECK_EQ_STR(buf, "1970-01-01T00:00:01.500Z");
}

static void
test_durations(void)
{
    struct kp_error e;
    long long ms = 0;

    CHECK(kp_parse_duration("since", "1h30m", &ms, &e) == 0);
    CHECK_EQ_INT(ms, 5400000);
    CHECK(kp_parse_duration("since", "90s", &ms, &e) == 0);
    CHECK_EQ_INT(ms, 90000);
    CHECK(kp_parse_duration("since", "250ms", &ms, &e) == 0);
    CHECK_EQ_INT(ms, 250);
    CHECK(kp_parse_duration("since", "1.5h", &ms, &e) == 0);
    CHECK_EQ_INT(ms, 5400000);
    CHECK(kp_parse_duration("since", "2d", &ms, &e) < 0);
    CHECK(kp_parse_duration("since", "", &ms, &e) < 0);
    CHECK(kp_parse_duration("since", "-1h", &ms, &e) < 0);
    CHECK(kp_parse_duration("since", "h", &ms, &e) < 0);
}

#define SNAP "{\"apiVersion\":\"v1\",\"kind\":\"List\",\"items\":[" \
    "{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"n1\"}}," \
    "{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"n2\"}}]}"

#define LINE(t, type, name) "{\"time\":\"1970-01-01T00:00:" t "Z\"," \
    "\"type\":\"" type "\",\"object\":{\"apiVersion\":\"v1\",\"kind\":" \
    "\"Node\",\"metadata\":{\"name\":\"" name "\"}}}\n"

/*
 * The names of the recording's nodes (pods: its pods) at `at` (ms), with
 * what was deleted from `from` on, space separated; the error instead.
 */
static const char *
names_at(bool pods, long long at, long long from, size_t *nwarn)
{
    static char out[4200];
    struct kp_recording_query q = {at, from};
    struct kp_snapshot s;
    struct kp_error e;
    size_t i, n;

    out[0] = '\0';
    kp_snapshot_init(&s);
    if (kp_recording_load(&s, tmpdir, &q, &e) < 0) {
        snprintf(out, sizeof(out), "error: %s", e.msg);
    } else {
        n = pods ? s.npods : s.nnodes;
        for (i = 0; i < n; i++) {
            if (i)
                strncat(out, " ", sizeof(out) - strlen(out) - 1);
            strncat(out, pods ? s.pods[i]->name : s.nodes[i]->name,
                    sizeof(out) - strlen(out) - 1);
        }
    }
    if (nwarn)
        *nwarn = s.nwarnings;
    kp_snapshot_release(&s);
    return out;
}

#define nodes_at(at, from, nwarn) names_at(false, at, from, nwarn)
#define pods_at(at, from) names_at(true, at, from, NULL)

static void
test_moments(void)
{
    size_t nw;

    CHECK(tmpdir_make("kp-recording") == 0);
    CHECK(!kp_recording_is_dir(tmpdir));
    write_file("kubectl-preempt-recording", "{}\n");
    CHECK(kp_recording_is_dir(tmpdir));
    CHECK(strstr(nodes_at(0, 0, NULL), "holds no snapshot") != NULL);
    write_file("snapshot-19700101T000010.000Z.json", SNAP);
    write_file("changes-19700101T000010.000Z.jsonl",
               LINE("11", "ADDED", "n3") LINE("12", "DELETED", "n1")
               LINE("13", "MODIFIED", "n2"));
    CHECK_EQ_STR(nodes_at(10000, 0, NULL), "n1 n2");
    CHECK_EQ_STR(nodes_at(11000, 0, NULL), "n1 n2 n3");
    CHECK_EQ_STR(nodes_at(12500, 0, NULL), "n2 n3");
    CHECK_EQ_STR(nodes_at(0, 0, NULL), "n2 n3");
    CHECK(strstr(nodes_at(9000, 0, NULL), "the recording starts at "
                 "1970-01-01T00:00:10.000Z") != NULL);
    /* a later snapshot takes over from its time on */
    write_file("snapshot-19700101T000020.000Z.json", SNAP);
    CHECK_EQ_STR(nodes_at(19000, 0, NULL), "n2 n3");
    CHECK_EQ_STR(nodes_at(21000, 0, NULL), "n1 n2");
    /* a last line cut by a crash: the rest is read, and a warning says */
    write_file("changes-19700101T000020.000Z.jsonl",
               LINE("21", "DELETED", "n2") "{\"time\":\"1970-01-01T00:0");
    CHECK_EQ_STR(nodes_at(0, 0, &nw), "n1");
    CHECK_EQ_INT(nw, 1);
    CHECK_EQ_STR(nodes_at(20500, 0, &nw), "n1 n2");
    CHECK(tmpdir_remove() == 0);
}

#define POD(name) "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":" \
    "{\"name\":\"" name "\",\"namespace\":\"ns\"},\"spec\":{\"containers\":" \
    "[{\"name\":\"c\"}]}}"
#define PODLINE(t, type, name) "{\"time\":\"1970-01-01T00:00:" t "Z\"," \
    "\"type\":\"" type "\",\"object\":" POD(name) "}\n"

/* explain's window: pods deleted in it come back as last seen */
static void
test_window(void)
{
    CHECK(tmpdir_make("kp-recording") == 0);
    write_file("kubectl-preempt-recording", "{}\n");
    write_file("snapshot-19700101T000010.000Z.json",
               "{\"apiVersion\":\"v1\",\"kind\":\"List\",\"items\":["
               POD("a") "," POD("b") "]}");
    write_file("changes-19700101T000010.000Z.jsonl",
               PODLINE("12", "DELETED", "a"));
    write_file("snapshot-19700101T000020.000Z.json",
               "{\"apiVersion\":\"v1\",\"kind\":\"List\",\"items\":["
               POD("b") "]}");
    write_file("changes-19700101T000020.000Z.jsonl",
               PODLINE("22", "DELETED", "b"));
    CHECK_EQ_STR(pods_at(0, 0), "");
    CHECK_EQ_STR(pods_at(0, 21000), "b");
    /* b back at its place, a (gone with the older snapshot) after */
    CHECK_EQ_STR(pods_at(0, 11000), "b a");
    CHECK_EQ_STR(pods_at(15000, 11000), "a b");
    CHECK_EQ_STR(pods_at(0, 13000), "b");
    CHECK(tmpdir_remove() == 0);
}

int
main(void)
{
    RUN(test_times);
    RUN(test_durations);
    RUN(test_moments);
    RUN(test_window);
    return check_done();
}
