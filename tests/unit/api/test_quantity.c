/*
 * test_quantity.c - core/api/quantity.c against the tables of
 * staging/src/k8s.io/apimachinery/pkg/api/resource/quantity_test.go,
 * quantity_overflow_test.go and quantity_subnano_test.go.
 *
 * Upstream states an expected value as decQuantity(m, e) = m * 10^e; the
 * rows below keep that pair and compare it with the parsed magnitude in
 * nano units (white box: struct kp_quantity's nano field).
 */
#include <math.h>
#include <stdio.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "check.h"
#include "quantity.h"

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

struct dec_row {
    const char *in;
    int64_t m;          /* expected value is m * 10^e */
    int e;
};

struct value_row {
    const char *in;
    int64_t value;      /* kp_quantity_value */
    int64_t milli;      /* kp_quantity_milli_value */
};

/* TestQuantityParse: valid inputs and their exact values. */
static const struct dec_row parse_rows[] = {
    { "0", 0, 0 }, { "0n", 0, 0 }, { "0u", 0, 0 }, { "0m", 0, 0 },
    { "0Ki", 0, 0 }, { "0k", 0, 0 }, { "0Mi", 0, 0 }, { "0M", 0, 0 },
    { "0Gi", 0, 0 }, { "0G", 0, 0 }, { "0Ti", 0, 0 }, { "0T", 0, 0 },
    /* Quantity less numbers are allowed */
    { "1", 1, 0 },
    /* Binary suffixes */
    { "1Ki", 1024, 0 },
    { "8Ki", 8 * 1024, 0 },
    { "7Mi", 7 * 1024 * 1024, 0 },
    { "6Gi", 6LL * 1024 * 1024 * 1024, 0 },
    { "5Ti", 5LL * 1024 * 1024 * 1024 * 1024, 0 },
    { "4Pi", 4LL * 1024 * 1024 * 1024 * 1024 * 1024, 0 },
    { "3Ei", 3LL * 1024 * 1024 * 1024 * 1024 * 1024 * 1024, 0 },
    { "10Ti", 10LL * 1024 * 1024 * 1024 * 1024, 0 },
    { "100Ti", 100LL * 1024 * 1024 * 1024 * 1024, 0 },
    /* Decimal suffixes */
    { "5n", 5, -9 }, { "4u", 4, -6 }, { "3m", 3, -3 }, { "9", 9, 0 },
    { "8k", 8, 3 }, { "50k", 5, 4 }, { "7M", 7, 6 }, { "6G", 6, 9 },
    { "5T", 5, 12 }, { "40T", 4, 13 }, { "300T", 3, 14 }, { "2P", 2, 15 },
    { "1E", 1, 18 },
    /* Decimal exponents */
    { "1E-3", 1, -3 }, { "1e3", 1, 3 }, { "1E6", 1, 6 }, { "1e9", 1, 9 },
    { "1E12", 1, 12 }, { "1e15", 1, 15 }, { "1E18", 1, 18 },
    /* Nonstandard but still parsable */
    { "1e14", 1, 14 }, { "1e13", 1, 13 }, { "1e3", 1, 3 },
    { "100.035k", 100035, 0 },
    /* Things that look like floating point */
    { "0.001", 1, -3 }, { "0.0005k", 5, -1 }, { "0.005", 5, -3 },
    { "0.05", 5, -2 }, { "0.5", 5, -1 }, { "0.00050k", 5, -1 },
    { "0.00500", 5, -3 }, { "0.05000", 5, -2 }, { "0.50000", 5, -1 },
    { "0.5e0", 5, -1 }, { "0.5e-1", 5, -2 }, { "0.5e-2", 5, -3 },
    { "0.5e0", 5, -1 }, { "10.035M", 10035, 3 },
    { "1.2e3", 12, 2 }, { "1.3E+6", 13, 5 }, { "1.40e9", 14, 8 },
    { "1.53E12", 153, 10 }, { "1.6e15", 16, 14 }, { "1.7E18", 17, 17 },
    { "9.01", 901, -2 }, { "8.1k", 81, 2 }, { "7.123456M", 7123456, 0 },
    { "6.987654321G", 6987654321LL, 0 }, { "5.444T", 5444, 9 },
    { "40.1T", 401, 11 }, { "300.2T", 3002, 11 }, { "2.5P", 25, 14 },
    { "1.01E", 101, 16 },
    /* Things that saturate/round */
    { "3.001n", 4, -9 }, { "1.1E-9", 2, -9 }, { "0.0000000001", 1, -9 },
    { "0.0000000005", 1, -9 }, { "0.00000000050", 1, -9 },
    { "0.5e-9", 1, -9 }, { "0.9n", 1, -9 }, { "0.00000012345", 124, -9 },
    { "0.00000012354", 124, -9 },
    { "9Ei", INT64_MAX, 0 },
    { "9223372036854775807Ki", INT64_MAX, 0 },
    { "12E", 12, 18 },
    /* We'll accept fractional binary stuff, too. */
    { "100.035Ki", 10243584, -2 },
    { "0.5Mi", 512 * 1024, 0 },
    { "0.05Gi", 536870912, -1 },
    { "0.025Ti", 274877906944LL, -1 },
    /* Things written by trolls */
    { "0.000000000001Ki", 2, -9 },
    { ".001", 1, -3 }, { ".0001k", 100, -3 }, { "1.", 1, 0 },
    { "1.G", 1, 9 },
};

/* TestQuantityParse: inputs ParseQuantity rejects, plus the brief's. */
static const char *const invalid_rows[] = {
    "1.1.M", "1+1.0M", "0.1mi", "0.1am", "aoeu", ".5i", "1i", "-3.01i",
    "-3.01e-",
    /* an exponent outside the int32 scale is rejected (#141203) */
    "1e4294967297",
    /* leading and trailing whitespace is forbidden */
    " 1", "1 ",
    "", "1.5.3Gi", "abc", "1Gb", "1e", "1ee3", "1e3e3", "1e+-3",
    /* suffixes are case-sensitive: no "K", no "gi" */
    "1K", "1gi", "1mi", "1Ki5", "1mE3", "--1", "+-1", "1-",
};

static unsigned __int128
pow10_u128(int e)
{
    unsigned __int128 v = 1;

    while (e-- > 0)
        v *= 10;
    return v;
}

static bool
nano_is(const struct kp_quantity *q, int64_t m, int e)
{
    unsigned __int128 want;
    bool neg = m < 0;

    want = (unsigned __int128)(neg ? -(uint64_t)m : (uint64_t)m);
    want *= pow10_u128(e + 9);
    if (want == 0)
        neg = false;
    return q->nano == want && q->negative == neg;
}

static void
check_dec_rows(const char *prefix, bool negate)
{
    size_t i;

    for (i = 0; i < NELEM(parse_rows); i++) {
        char buf[64];
        struct kp_quantity q;
        struct kp_error err;
        int64_t m = parse_rows[i].m;

        snprintf(buf, sizeof(buf), "%s%s", prefix, parse_rows[i].in);
        if (kp_quantity_parse(buf, &q, &err) != 0) {
            printf("#   %s: unexpected error: %s\n", buf, err.msg);
            CHECK(0);
            continue;
        }
        if (!nano_is(&q, negate ? -m : m, parse_rows[i].e)) {
            printf("#   %s: wrong value\n", buf);
            CHECK(0);
        }
    }
}

static void
check_value_rows(const struct value_row *rows, size_t n)
{
    size_t i;

    for (i = 0; i < n; i++) {
        struct kp_quantity q;
        struct kp_error err;

        if (kp_quantity_parse(rows[i].in, &q, &err) != 0) {
            printf("#   %s: unexpected error: %s\n", rows[i].in, err.msg);
            CHECK(0);
            continue;
        }
        if (kp_quantity_value(&q) != rows[i].value ||
            kp_quantity_milli_value(&q) != rows[i].milli) {
            printf("#   %s: value %" PRId64 " milli %" PRId64
                   ", want %" PRId64 " %" PRId64 "\n", rows[i].in,
                   kp_quantity_value(&q), kp_quantity_milli_value(&q),
                   rows[i].value, rows[i].milli);
            CHECK(0);
        }
    }
}

static bool
parses(const char *s)
{
    struct kp_quantity q;
    struct kp_error err;

    return kp_quantity_parse(s, &q, &err) == 0;
}

/* TestQuantityParse, first loop: every row parses to its exact value. */
static void
test_quantity__parse(void)
{
    check_dec_rows("", false);
}

/* TestQuantityParse: "Try the negative version of everything". */
static void
test_quantity__parse_negative(void)
{
    check_dec_rows("-", true);
}

/* TestQuantityParse: "Try everything with an explicit +". */
static void
test_quantity__parse_explicit_plus(void)
{
    check_dec_rows("+", false);
}

/* TestQuantityParse: the invalid list; errors name the input. */
static void
test_quantity__parse_invalid(void)
{
    size_t i;

    for (i = 0; i < NELEM(invalid_rows); i++) {
        struct kp_quantity q;
        struct kp_error err;
        char want[128];

        memset(&err, 0, sizeof(err));
        if (kp_quantity_parse(invalid_rows[i], &q, &err) == 0) {
            printf("#   '%s' parsed unexpectedly\n", invalid_rows[i]);
            CHECK(0);
            continue;
        }
        snprintf(want, sizeof(want), "invalid quantity '%s'",
                 invalid_rows[i]);
        CHECK_EQ_STR(err.msg, want);
        CHECK_EQ_INT(err.exit_code, KP_EXIT_ERROR);
    }
}

/*
 * TestParseQuantityString: "." and "-." scan as zero.  Reading the same
 * scanner: a bare suffix also has the implicit numerator "0", but a value
 * with no digit that ParseQuantity sends to its inf.Dec path (exponent
 * below -9, or Pi/Ei whose precision estimate is negative) fails
 * inf.Dec.SetString.
 */
static void
test_quantity__parse_quantity_string(void)
{
    static const char *const zero[] = {
        ".", "-.", "+.", "-", "+", "000", "-0", "Ki", "Ti", "k", "M",
        "m", "n", "E", "e3", ".e-9", ".Ki", "0e-10", "-0.0e-100",
    };
    static const char *const bad[] = { "Pi", "Ei", ".e-10", "-.Ei", "e-10" };
    size_t i;

    for (i = 0; i < NELEM(zero); i++) {
        struct kp_quantity q;
        struct kp_error err;

        CHECK(kp_quantity_parse(zero[i], &q, &err) == 0);
        CHECK(q.nano == 0 && !q.negative);
        CHECK_EQ_INT(kp_quantity_value(&q), 0);
    }
    for (i = 0; i < NELEM(bad); i++)
        CHECK(!parses(bad[i]));
}

/*
 * TestInterpretExponentInt32Bounds: the exponent is parsed as int64 and
 * must lie in [-MaxInt32, MaxInt32].
 */
static void
test_quantity__interpret_exponent_int32_bounds(void)
{
    struct kp_quantity q;
    struct kp_error err;

    CHECK(parses("1e14"));
    CHECK(kp_quantity_parse("1E2147483647", &q, &err) == 0);
    CHECK_EQ_INT(kp_quantity_value(&q), INT64_MAX);
    CHECK(kp_quantity_parse("1E-2147483647", &q, &err) == 0);
    CHECK(q.nano == 1);
    CHECK(!parses("1E2147483648"));
    CHECK(!parses("1E-2147483648"));
    CHECK(!parses("1E4294967297"));
    CHECK(!parses("1E8589934592"));
    CHECK(!parses("1E9223372036854775807"));
    CHECK(!parses("1E9223372036854775808"));
    CHECK(!parses("1E6024865272343"));
}

/* TestQuantityParseEmit: the inputs, checked by value. */
static void
test_quantity__parse_emit(void)
{
    static const struct dec_row rows[] = {
        { "1Ki", 1024, 0 }, { "1Mi", 1048576, 0 },
        { "1Gi", 1073741824, 0 }, { "1024Mi", 1073741824, 0 },
        { "1000M", 1, 9 }, { ".001Ki", 1024, -3 },
        { ".000001Ki", 1024, -6 }, { ".000000001Ki", 1024, -9 },
        { ".000000000001Ki", 2, -9 },
    };
    size_t i;

    for (i = 0; i < NELEM(rows); i++) {
        struct kp_quantity q;
        struct kp_error err;
        char neg[32];

        CHECK(kp_quantity_parse(rows[i].in, &q, &err) == 0);
        CHECK(nano_is(&q, rows[i].m, rows[i].e));
        snprintf(neg, sizeof(neg), "-%s", rows[i].in);
        CHECK(kp_quantity_parse(neg, &q, &err) == 0);
        CHECK(nano_is(&q, -rows[i].m, rows[i].e));
    }
}

/* TestNegativeValueRoundsAwayFromZero (#110653). */
static void
test_quantity__negative_value_rounds_away_from_zero(void)
{
    static const struct value_row rows[] = {
        { "-.484785E-7466", -1, -1 }, { ".484785E-7466", 1, 1 },
        { "-.484785E-1", -1, -49 }, { ".484785E-1", 1, 49 },
        { "-0.0005", -1, -1 }, { "0.0005", 1, 1 },
        { "-1500m", -2, -1500 }, { "1500m", 2, 1500 },
        { "-9.5000000001Gi", -10200547329LL, -10200547328108LL },
        { "9.5000000001Gi", 10200547329LL, 10200547328108LL },
        { "-1", -1, -1000 }, { "1", 1, 1000 }, { "0", 0, 0 },
    };

    check_value_rows(rows, NELEM(rows));
}

/* quantityAccessorCases (quantity_overflow_test.go), parsed rows. */
static void
test_quantity__accessor_saturates(void)
{
    static const struct value_row rows[] = {
        { "9223372036854775807", INT64_MAX, INT64_MAX },
        { "1E", 1000000000000000000LL, INT64_MAX },
        { "8Ei", INT64_MAX, INT64_MAX },
        { "-8Ei", -INT64_MAX, INT64_MIN },
        { "20Ei", INT64_MAX, INT64_MAX },
        { "-20Ei", -INT64_MAX, INT64_MIN },
        { "9223372036854775808", INT64_MAX, INT64_MAX },
        { "18446744073709551616", INT64_MAX, INT64_MAX },
        { "100E", INT64_MAX, INT64_MAX },
        { "1000E", INT64_MAX, INT64_MAX },
        { "5000E", INT64_MAX, INT64_MAX },
        { "1e100", INT64_MAX, INT64_MAX },
        { "-9223372036854775808", INT64_MIN, INT64_MIN },
        { "-9223372036854775807", INT64_MIN + 1, INT64_MIN },
        { "-1e30", INT64_MIN, INT64_MIN },
        { "-100E", INT64_MIN, INT64_MIN },
        { "-1000E", INT64_MIN, INT64_MIN },
        { "-9.5Gi", -10200547328LL, -10200547328000LL },
        { "-9.5000000001Gi", -10200547329LL, -10200547328108LL },
        { "9223372036854775807m", 9223372036854776LL, INT64_MAX },
        { "-9223372036854775808m", -9223372036854776LL, INT64_MIN },
        /* the brief: 1e999 parses (the exponent fits int32) */
        { "1e999", INT64_MAX, INT64_MAX },
        { "-1e999", INT64_MIN, INT64_MIN },
        { "99999999999999999999", INT64_MAX, INT64_MAX },
        { "9999999999999999999", INT64_MAX, INT64_MAX },
    };

    check_value_rows(rows, NELEM(rows));
}

/* TestParseQuantitySubNanoRoundsUp and ...MatchesRound. */
static void
test_quantity__sub_nano_rounds_up(void)
{
    static const struct dec_row rows[] = {
        { "1e-2147483647", 1, -9 }, { "-1e-2147483647", -1, -9 },
        { "1e-100", 1, -9 }, { "-1e-100", -1, -9 },
        { "1e-10", 1, -9 }, { "9e-10", 1, -9 }, { "-9e-10", -1, -9 },
        { "1e-9", 1, -9 }, { "-1e-9", -1, -9 }, { "2e-9", 2, -9 },
        { "15e-10", 2, -9 },
        { "1000000000000000000000e-30", 1, -9 },
        { "1000000000000000000001e-30", 2, -9 },
        { "999999999999999999999e-30", 1, -9 },
        { "0e-2147483647", 0, 0 }, { "0.0e-100", 0, 0 },
        { "0.00000000000000000000001Ki", 1, -9 },
        { "0.0000000000001", 1, -9 }, { "-0.0000000000001", -1, -9 },
        { "0.0000000009", 1, -9 },
    };
    size_t i;

    for (i = 0; i < NELEM(rows); i++) {
        struct kp_quantity q;
        struct kp_error err;

        CHECK(kp_quantity_parse(rows[i].in, &q, &err) == 0);
        if (!nano_is(&q, rows[i].m, rows[i].e)) {
            printf("#   %s: wrong value\n", rows[i].in);
            CHECK(0);
        }
    }
}

/*
 * TestScaledValue, TestNewScaledSet, TestNewSet and TestMilliNewSet: the
 * canonical strings they round-trip through ParseQuantity.
 */
static void
test_quantity__scaled_value(void)
{
    static const struct value_row rows[] = {
        { "1n", 1, 1 }, { "1u", 1, 1 }, { "1m", 1, 1 }, { "1", 1, 1000 },
        { "0", 0, 0 }, { "1k", 1000, 1000000 },
        { "1234k", 1234000, 1234000000LL }, { "1Ki", 1024, 1024000 },
        { "1e6", 1000000, 1000000000LL }, { "1Mi", 1048576, 1048576000LL },
        { "1234", 1234, 1234000 }, { "1024m", 2, 1024 },
        { "1e3", 1000, 1000000 }, { "1048576m", 1049, 1048576 },
    };

    check_value_rows(rows, NELEM(rows));
}

/* Quantities kube-scheduler reads in requests and allocatable. */
static void
test_quantity__scheduler_examples(void)
{
    static const struct value_row rows[] = {
        { "0.1", 1, 100 }, { "1.0001", 2, 1001 }, { "250m", 1, 250 },
        { "1.5Gi", 1610612736LL, 1610612736000LL }, { "100m", 1, 100 },
        { "1e3", 1000, 1000000 }, { "2k", 2000, 2000000 },
        { "200Mi", 209715200LL, 209715200000LL },
    };

    check_value_rows(rows, NELEM(rows));
}

static int
json_quantity(const char *text, struct kp_quantity *q, struct kp_error *err)
{
    cJSON *j = cJSON_Parse(text);
    int rc;

    if (!j) {
        printf("#   bad test JSON: %s\n", text);
        return -2;
    }
    rc = kp_quantity_from_json(j, q, err);
    cJSON_Delete(j);
    return rc;
}

/* TestJSONWhitespace: UnmarshalJSON trims the string, numbers are bare. */
static void
test_quantity__json_whitespace(void)
{
    static const struct {
        const char *json;
        int64_t value;
    } rows[] = {
        { "\" 1\"", 1 }, { "\"1 \"", 1 }, { "1", 1 }, { " 1", 1 },
        { "1 ", 1 }, { "10", 10 }, { "-1", -1 }, { " -1", -1 },
        { "\"\xc2\xa0" "2\xe3\x80\x80\"", 2 },
    };
    size_t i;

    for (i = 0; i < NELEM(rows); i++) {
        struct kp_quantity q;
        struct kp_error err;

        CHECK(json_quantity(rows[i].json, &q, &err) == 0);
        CHECK_EQ_INT(kp_quantity_value(&q), rows[i].value);
    }
}

/*
 * A bare JSON number reads as the shortest decimal that round-trips the
 * double, as the API server sees the literal; integer-valued doubles as
 * plain digits.
 */
static void
test_quantity__from_json_number(void)
{
    static const struct value_row rows[] = {
        { "0.1", 1, 100 }, { "1.0001", 2, 1001 }, { "0.25", 1, 250 },
        { "1e3", 1000, 1000000 }, { "1.5e-7", 1, 1 },
        { "-0.5", -1, -500 }, { "-0", 0, 0 }, { "4096", 4096, 4096000 },
        { "1e300", INT64_MAX, INT64_MAX },
        { "123456789.123", 123456790, 123456789123LL },
    };
    size_t i;

    for (i = 0; i < NELEM(rows); i++) {
        struct kp_quantity q;
        struct kp_error err;

        CHECK(json_quantity(rows[i].in, &q, &err) == 0);
        CHECK_EQ_INT(kp_quantity_value(&q), rows[i].value);
        CHECK_EQ_INT(kp_quantity_milli_value(&q), rows[i].milli);
    }
}

/* JSON null is the zero Quantity (UnmarshalJSON); other types fail. */
static void
test_quantity__from_json_types(void)
{
    struct kp_quantity q;
    struct kp_error err;
    cJSON *inf;

    CHECK(json_quantity("null", &q, &err) == 0);
    CHECK(q.nano == 0);
    CHECK(kp_quantity_from_json(NULL, &q, &err) == 0);
    CHECK(q.nano == 0);
    CHECK(json_quantity("\"250m\"", &q, &err) == 0);
    CHECK_EQ_INT(kp_quantity_milli_value(&q), 250);
    CHECK(json_quantity("true", &q, &err) == -1);
    CHECK_EQ_STR(err.msg, "invalid quantity 'true'");
    CHECK_EQ_INT(err.exit_code, KP_EXIT_ERROR);
    CHECK(json_quantity("{\"a\":1}", &q, &err) == -1);
    CHECK_EQ_STR(err.msg, "invalid quantity '{\"a\":1}'");
    CHECK(json_quantity("[1]", &q, &err) == -1);
    CHECK(json_quantity("\"1.5.0\"", &q, &err) == -1);
    CHECK_EQ_STR(err.msg, "invalid quantity '1.5.0'");
    /* escapes reach UnmarshalJSON undecoded: "\t1" is not trimmed */
    CHECK(json_quantity("\"\\t1\"", &q, &err) == -1);
    CHECK(json_quantity("\"1\\n\"", &q, &err) == -1);
    inf = cJSON_CreateNumber(INFINITY);
    CHECK(kp_quantity_from_json(inf, &q, &err) == -1);
    CHECK_EQ_STR(err.msg, "invalid quantity 'inf'");
    cJSON_Delete(inf);
}

/* strconv.ParseInt(s, 10, 64), as used for exponents and Gt/Lt. */
static void
test_quantity__parse_int64(void)
{
    static const struct {
        const char *s;
        int ok;
        int64_t v;
    } rows[] = {
        { "0", 1, 0 }, { "+5", 1, 5 }, { "-3", 1, -3 }, { "0204", 1, 204 },
        { "9223372036854775807", 1, INT64_MAX },
        { "-9223372036854775808", 1, INT64_MIN },
        { "9223372036854775808", 0, 0 }, { "-9223372036854775809", 0, 0 },
        { "", 0, 0 }, { "+", 0, 0 }, { "-", 0, 0 }, { " 1", 0, 0 },
        { "1 ", 0, 0 }, { "1_000", 0, 0 }, { "0x10", 0, 0 },
        { "1e3", 0, 0 }, { "++1", 0, 0 },
    };
    size_t i;

    for (i = 0; i < NELEM(rows); i++) {
        int64_t v = 0;
        int rc = kp_parse_int64(rows[i].s, strlen(rows[i].s), &v);

        CHECK_EQ_INT(rc == 0, rows[i].ok);
        if (rows[i].ok)
            CHECK_EQ_INT(v, rows[i].v);
    }
}

/*
 * Value() and MilliValue() past int64, per release (kp_kube_rules
 * KP_RULE_QUANTITY_SATURATE).  v1.38 (kubernetes/kubernetes#141305,
 * CHANGELOG-1.38 v1.38.0-alpha.1): they saturate.  1.31-1.37
 * (apimachinery v0.31.0 to v0.37.0-beta.0, where amount.go, math.go and
 * scale_int.go do not change): ScaledValue drops AsScaledInt64's ok, so
 * an int64Amount scaled by 10^3, 10^6 or 10^9 wraps
 * (int64MultiplyScale*), by any other power past int64 gives 0
 * (positiveScaleInt64's loop), and an inf.Dec gives the low 64 bits of
 * the rounded-up result (scaledValue, big.Int.Int64).  Expected wrapped
 * values: the exact product modulo 2^64, worked out by hand (Python).
 */
static void
test_quantity__past_int64_by_version(void)
{
    static const struct {
        const char *in;
        int64_t value_old, milli_old;   /* 1.31-1.37 */
        int64_t value_new, milli_new;   /* 1.38 */
    } rows[] = {
        /* just below, at, and past 2^63 */
        { "9223372036854775", 9223372036854775LL, 9223372036854775000LL,
          9223372036854775LL, 9223372036854775000LL },
        /* inf.Dec (19 digits): * 1000 wraps to -1000 */
        { "9223372036854775807", INT64_MAX, -1000, INT64_MAX, INT64_MAX },
        { "9223372036854775808", INT64_MIN, 0, INT64_MAX, INT64_MAX },
        /* the #141305 example, NewScaledQuantity(MaxInt64, 1): -10 */
        { "9223372036854775807e1", -10, -10000, INT64_MAX, INT64_MAX },
        /* int64Amount {9223372036854776, 3}: * 10^3 and 10^6 wrap */
        { "9223372036854776k", -9223372036854775616LL, 192000,
          INT64_MAX, INT64_MAX },
        { "9223372036854775k", 9223372036854775000LL, -808000,
          9223372036854775000LL, INT64_MAX },
        /* int64Amount at 10^15 and 10^18 and 10^19: the loop gives 0 */
        { "9300P", 0, 0, INT64_MAX, INT64_MAX },
        { "100E", 0, 0, INT64_MAX, INT64_MAX },
        { "1e19", 0, 0, INT64_MAX, INT64_MAX },
        { "1E", 1000000000000000000LL, 0, 1000000000000000000LL, INT64_MAX },
        /* cpu past int64 milli-units */
        { "9223372036854775808m", 9223372036854776LL, INT64_MIN,
          9223372036854776LL, INT64_MAX },
        { "9223372036854775807m", 9223372036854776LL, INT64_MAX,
          9223372036854776LL, INT64_MAX },
        /* BinarySI is capped at 2^63-1 on parse: only milli wraps */
        { "8Ei", INT64_MAX, -1000, INT64_MAX, INT64_MAX },
        /* far past int64: the low 64 bits of the exact value */
        { "123456789012345678901234567890123456789012345",
          -1199228034047877255LL, -189669256756399960LL,
          INT64_MAX, INT64_MAX },
        { "1e40", 0, 0, INT64_MAX, INT64_MAX },
        /* fractions: rounded up, the same in every release */
        { "0.5", 1, 500, 1, 500 }, { "1.5Gi", 1610612736LL,
          1610612736000LL, 1610612736LL, 1610612736000LL },
        { "100n", 1, 1, 1, 1 }, { "0", 0, 0, 0, 0 },
    };
    size_t i;

    for (i = 0; i < NELEM(rows); i++) {
        struct kp_quantity q;
        struct kp_error err;

        CHECK(kp_quantity_parse(rows[i].in, &q, &err) == 0);
        if (kp_quantity_value_wrap(&q) != rows[i].value_old ||
            kp_quantity_milli_value_wrap(&q) != rows[i].milli_old ||
            kp_quantity_value(&q) != rows[i].value_new ||
            kp_quantity_milli_value(&q) != rows[i].milli_new) {
            printf("#   %s: 1.37 %lld %lld, 1.38 %lld %lld\n", rows[i].in,
                   (long long)kp_quantity_value_wrap(&q),
                   (long long)kp_quantity_milli_value_wrap(&q),
                   (long long)kp_quantity_value(&q),
                   (long long)kp_quantity_milli_value(&q));
            CHECK(0);
        }
    }
}

/*
 * What PodRequests leaves for the scheduler to read: Quantity.Add and
 * maxResourceList on the quantities, then Value()/MilliValue() once
 * (apimachinery v0.37 quantity.go Add, amount.go int64Amount.Add,
 * component-helpers helpers.go maxResourceList, whose Cmp turns its
 * receiver into an inf.Dec when the other side is one).
 */
static void
test_quantity__pod_sums_by_version(void)
{
    static const struct {
        const char *a, *b;
        bool max;                       /* max(a, b), else a + b */
        int64_t value_old, milli_old;   /* 1.31-1.37 */
        int64_t value_new, milli_new;   /* 1.38 */
    } rows[] = {
        /* exact: 0.5m + 0.5m is 1m (the int64 reads would give 2m) */
        { "500u", "500u", false, 1, 1, 1, 1 },
        { "0.5", "0.5", false, 1, 1000, 1, 1000 },
        /* int64Amount {5,18} + {5,18} = {10,18}: Value's loop gives 0 */
        { "5E", "5E", false, 0, 0, INT64_MAX, INT64_MAX },
        /* 1E + 1E = {2,18}: fits Value, not MilliValue (10^21: 0) */
        { "1E", "1E", false, 2000000000000000000LL, 0,
          2000000000000000000LL, INT64_MAX },
        /* {10,18} + {1,0}: 10^19 does not fit, inf.Dec at scale 0 */
        { "10E", "1", false, -8446744073709551615LL,
          1864712049423025128LL,
          INT64_MAX, INT64_MAX },
        /* max(inf.Dec 10^18, 10E): 10E wins as inf.Dec of scale -18:
         * Value is 10 * int64(1e18), wrapped */
        { "1000000000000000000", "10E", true, -8446744073709551616LL, 0,
          INT64_MAX, INT64_MAX },
        /* ... and MilliValue 9 * int64(math.Pow10(21)): INT64_MIN on
         * amd64 (out of range), times 9 (odd): INT64_MIN */
        { "1000000000000000000", "9E", true, 9000000000000000000LL,
          INT64_MIN, 9000000000000000000LL, INT64_MAX },
        /* both int64Amounts: no conversion, 10E keeps reading 0 */
        { "1", "10E", true, 0, 0, INT64_MAX, INT64_MAX },
        /* the larger is kept as it is; equal: a is kept */
        { "2", "1", true, 2, 2000, 2, 2000 },
    };
    size_t i;

    for (i = 0; i < NELEM(rows); i++) {
        struct kp_quantity a, b;
        struct kp_error err;

        CHECK(kp_quantity_parse(rows[i].a, &a, &err) == 0);
        CHECK(kp_quantity_parse(rows[i].b, &b, &err) == 0);
        if (rows[i].max)
            kp_quantity_max(&a, &b);
        else
            kp_quantity_add(&a, &b);
        if (kp_quantity_value_wrap(&a) != rows[i].value_old ||
            kp_quantity_milli_value_wrap(&a) != rows[i].milli_old ||
            kp_quantity_value(&a) != rows[i].value_new ||
            kp_quantity_milli_value(&a) != rows[i].milli_new) {
            printf("#   %s %s %s: 1.37 %lld %lld, 1.38 %lld %lld\n",
                   rows[i].a, rows[i].max ? "max" : "+", rows[i].b,
                   (long long)kp_quantity_value_wrap(&a),
                   (long long)kp_quantity_milli_value_wrap(&a),
                   (long long)kp_quantity_value(&a),
                   (long long)kp_quantity_milli_value(&a));
            CHECK(0);
        }
    }
}

int
main(void)
{
    RUN(test_quantity__parse);
    RUN(test_quantity__past_int64_by_version);
    RUN(test_quantity__pod_sums_by_version);
    RUN(test_quantity__parse_negative);
    RUN(test_quantity__parse_explicit_plus);
    RUN(test_quantity__parse_invalid);
    RUN(test_quantity__parse_quantity_string);
    RUN(test_quantity__interpret_exponent_int32_bounds);
    RUN(test_quantity__parse_emit);
    RUN(test_quantity__negative_value_rounds_away_from_zero);
    RUN(test_quantity__accessor_saturates);
    RUN(test_quantity__sub_nano_rounds_up);
    RUN(test_quantity__scaled_value);
    RUN(test_quantity__scheduler_examples);
    RUN(test_quantity__json_whitespace);
    RUN(test_quantity__from_json_number);
    RUN(test_quantity__from_json_types);
    RUN(test_quantity__parse_int64);
    return check_done();
}
