/* json_util.c - see json_util.h. */
#include "json_util.h"

#include <math.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * Whether msg starts with a field path ("spec.priority: ...",
 * "[0].key: ..."): a run without spaces or quotes up to the first ": ".
 * Otherwise it is a bare complaint ("expected an object").
 */
static bool
starts_with_path(const char *msg)
{
    const char *colon = strstr(msg, ": ");
    const char *p;

    if (!colon || colon == msg)
        return false;
    for (p = msg; p < colon; p++)
        if (*p == ' ' || *p == '\'' || *p == '"')
            return false;
    return true;
}

int
kp_error_path(struct kp_error *err, const char *fmt, ...)
{
    char seg[256];
    char old[sizeof(err->msg)];
    va_list ap;

    if (!err)
        return -1;
    va_start(ap, fmt);
    vsnprintf(seg, sizeof(seg), fmt, ap);
    va_end(ap);
    memcpy(old, err->msg, sizeof(old));
    if (!starts_with_path(old))
        kp_error_join(err, seg, ": ", old);
    else
        kp_error_join(err, seg, old[0] == '[' ? "" : ".", old);
    return -1;
}

const cJSON *
kp_json_get(const cJSON *obj, const char *key)
{
    const cJSON *v;

    if (!obj || !cJSON_IsObject(obj))
        return NULL;
    /*
     * cJSON_GetObjectItemCaseSensitive's walk (the first member of that
     * name; a member without one ends it), the first byte compared
     * before strcmp: most members are not the one looked for.
     */
    for (v = obj->child; v && v->string; v = v->next)
        if (v->string[0] == key[0] && strcmp(v->string, key) == 0)
            break;
    if (!v || !v->string || cJSON_IsNull(v))
        return NULL;
    return v;
}

static int
type_error(struct kp_error *err, const char *key, const char *type)
{
    return kp_errorf(err, KP_EXIT_ERROR, "%s: expected %s", key, type);
}

/*
 * The member key of obj into *out when is() says it has the type (NULL
 * when it is absent or null); a member of another type is the error
 * "KEY: expected TYPE".
 */
static int
typed_member(const cJSON *obj, const char *key,
             cJSON_bool (*is)(const cJSON *), const char *type,
             const cJSON **out, struct kp_error *err)
{
    const cJSON *v = kp_json_get(obj, key);

    *out = NULL;
    if (!v)
        return 0;
    if (!is(v))
        return type_error(err, key, type);
    *out = v;
    return 0;
}

int
kp_json_str(struct kp_arena *a, const cJSON *obj, const char *key,
            const char **out, struct kp_error *err)
{
    const cJSON *v;
    int rc = typed_member(obj, key, cJSON_IsString, "a string", &v, err);

    *out = v ? kp_arena_strdup(a, v->valuestring) : NULL;
    return rc;
}

int
kp_json_istr(struct kp_arena *a, const cJSON *obj, const char *key,
             const char **out, struct kp_error *err)
{
    const cJSON *v;
    int rc = typed_member(obj, key, cJSON_IsString, "a string", &v, err);

    *out = v ? kp_arena_intern(a, v->valuestring) : NULL;
    return rc;
}

int
kp_json_obj(const cJSON *obj, const char *key, const cJSON **out,
            struct kp_error *err)
{
    return typed_member(obj, key, cJSON_IsObject, "an object", out, err);
}

int
kp_json_arr(const cJSON *obj, const char *key, const cJSON **out,
            struct kp_error *err)
{
    return typed_member(obj, key, cJSON_IsArray, "an array", out, err);
}

int
kp_json_bool(const cJSON *obj, const char *key, bool *out,
             struct kp_error *err)
{
    const cJSON *v;
    int rc = typed_member(obj, key, cJSON_IsBool, "a boolean", &v, err);

    *out = v && cJSON_IsTrue(v);
    return rc;
}

static int
range_error(struct kp_error *err, const char *key, double d, int64_t min,
            int64_t max)
{
    return kp_errorf(err, KP_EXIT_ERROR, "%s: %.0f is out of range "
                     "[%lld, %lld]", key, d, (long long)min, (long long)max);
}

int
kp_json_int(const cJSON *obj, const char *key, int64_t min, int64_t max,
            int64_t *out, bool *set, struct kp_error *err)
{
    const cJSON *v = kp_json_get(obj, key);
    double d;

    *out = 0;
    if (set)
        *set = false;
    if (!v)
        return 0;
    if (!cJSON_IsNumber(v))
        return type_error(err, key, "an integer");
    d = v->valuedouble;
    if (!isfinite(d) || d != floor(d))
        return kp_errorf(err, KP_EXIT_ERROR, "%s: expected an integer", key);
    /*
     * (double)INT64_MAX rounds up to 2^63, which int64_t cannot hold: a
     * JSON integer that reads as exactly 2^63 is INT64_MAX where that is
     * allowed (its digits may have said so); the cast would overflow.
     */
    if (d >= 9223372036854775808.0) {
        if (max != INT64_MAX || d > 9223372036854775808.0)
            return range_error(err, key, d, min, max);
        *out = INT64_MAX;
    } else if (d < (double)min || d > (double)max) {
        return range_error(err, key, d, min, max);
    } else {
        *out = (int64_t)d;
    }
    if (set)
        *set = true;
    return 0;
}

static int
digits(const char **p, int n, int *out)
{
    int v = 0, i;

    for (i = 0; i < n; i++) {
        if ((*p)[i] < '0' || (*p)[i] > '9')
            return -1;
        v = v * 10 + ((*p)[i] - '0');
    }
    *p += n;
    *out = v;
    return 0;
}

static int64_t
days_from_civil(int64_t y, int m, int d)
{
    int64_t era, yoe, doy, doe;

    y -= m <= 2;
    era = (y >= 0 ? y : y - 399) / 400;
    yoe = y - era * 400;
    doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

static int
days_in_month(int y, int m)
{
    static const int days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30,
                               31};
    bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;

    return m == 2 && leap ? 29 : days[m - 1];
}

static int
parse_fraction(const char **p, int64_t *nanos)
{
    int64_t f = 0, scale = 100000000;

    if (**p != '.')
        return 0;
    (*p)++;
    if (**p < '0' || **p > '9')
        return -1;
    while (**p >= '0' && **p <= '9') {
        f += (**p - '0') * scale;
        scale /= 10;
        (*p)++;
    }
    *nanos = f;
    return 0;
}

int
kp_parse_rfc3339(const char *s, int64_t *ns)
{
    int y, mo, d, h, mi, se, oh = 0, om = 0;
    int64_t nanos = 0, secs, off = 0;
    const char *p = s;

    if (digits(&p, 4, &y) || *p++ != '-' || digits(&p, 2, &mo) ||
        *p++ != '-' || digits(&p, 2, &d) || (*p != 'T' && *p != 't'))
        return -1;
    p++;
    if (digits(&p, 2, &h) || *p++ != ':' || digits(&p, 2, &mi) ||
        *p++ != ':' || digits(&p, 2, &se) || parse_fraction(&p, &nanos))
        return -1;
    if (*p == 'Z' || *p == 'z') {
        p++;
    } else if (*p == '+' || *p == '-') {
        int sign = *p++ == '-' ? -1 : 1;

        if (digits(&p, 2, &oh) || *p++ != ':' || digits(&p, 2, &om))
            return -1;
        off = sign * (oh * 3600 + om * 60);
    } else {
        return -1;
    }
    /* time.Parse's ranges: no February 30, no leap second */
    if (*p || mo < 1 || mo > 12 || d < 1 || d > days_in_month(y, mo) ||
        h > 23 || mi > 59 || se > 59 || oh > 23 || om > 59)
        return -1;
    secs = days_from_civil(y, mo, d) * 86400 + h * 3600 + mi * 60 + se - off;
    /* int64 nanoseconds cover 1678-2262; later or earlier saturates */
    if (secs > INT64_MAX / 1000000000LL - 1)
        *ns = INT64_MAX;
    else if (secs < INT64_MIN / 1000000000LL + 1)
        *ns = INT64_MIN;
    else
        *ns = secs * 1000000000LL + nanos;
    return 0;
}

int
kp_json_time(const cJSON *obj, const char *key, int64_t *out, bool *set,
             struct kp_error *err)
{
    const cJSON *v = kp_json_get(obj, key);

    *out = 0;
    *set = false;
    if (!v)
        return 0;
    if (!cJSON_IsString(v))
        return type_error(err, key, "an RFC 3339 time string");
    if (kp_parse_rfc3339(v->valuestring, out) < 0)
        return kp_errorf(err, KP_EXIT_ERROR, "%s: invalid RFC 3339 time '%s'",
                         key, v->valuestring);
    *set = true;
    return 0;
}

int
kp_json_str_array(struct kp_arena *a, const cJSON *obj, const char *key,
                  size_t *n, const char ***out, struct kp_error *err)
{
    const cJSON *arr, *it;
    size_t i = 0;

    *n = 0;
    *out = NULL;
    if (kp_json_arr(obj, key, &arr, err) < 0)
        return -1;
    if (!arr)
        return 0;
    *out = kp_arena_alloc(a, sizeof(char *) *
                                 (size_t)cJSON_GetArraySize(arr));
    cJSON_ArrayForEach(it, arr) {
        if (!cJSON_IsString(it))
            return kp_errorf(err, KP_EXIT_ERROR, "%s[%zu]: expected a string",
                             key, i);
        (*out)[i++] = kp_arena_intern(a, it->valuestring);
    }
    *n = i;
    return 0;
}

const char *
kp_json_type_name(const cJSON *v)
{
    if (cJSON_IsNumber(v))
        return "a number";
    if (cJSON_IsString(v))
        return "a string";
    if (cJSON_IsArray(v))
        return "an array";
    if (cJSON_IsBool(v))
        return "a boolean";
    if (cJSON_IsNull(v))
        return "null";
    return "an object";
}

/* ---- validation ---- */

static bool
utf8_valid(const unsigned char *s)
{
    while (*s) {
        unsigned c = *s, n, cp, i;

        if (c < 0x80) {
            s++;
            continue;
        }
        if (c >= 0xC2 && c <= 0xDF) {
            n = 1;
            cp = c & 0x1F;
        } else if (c >= 0xE0 && c <= 0xEF) {
            n = 2;
            cp = c & 0x0F;
        } else if (c >= 0xF0 && c <= 0xF4) {
            n = 3;
            cp = c & 0x07;
        } else {
            return false;
        }
        for (i = 1; i <= n; i++) {
            if ((s[i] & 0xC0) != 0x80)
                return false;
            cp = (cp << 6) | (s[i] & 0x3F);
        }
        if ((n == 2 && cp < 0x800) || (n == 3 && cp < 0x10000) ||
            cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
            return false;
        s += n + 1;
    }
    return true;
}

static int
cmp_keys(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static int
check_dup_keys(const cJSON *obj, const char **dup)
{
    const char *stack[32];
    const char **keys = stack;
    const cJSON *c;
    size_t n = 0, i;
    int rc = 0;

    for (c = obj->child; c; c = c->next)
        n++;
    if (n < 2)
        return 0;
    if (n <= 16) {
        /* few members: each pair, the first byte before strcmp; the
         * smallest key found twice, as the sort would find it */
        const cJSON *d;

        *dup = NULL;
        for (c = obj->child; c; c = c->next) {
            const char *a = c->string ? c->string : "";

            for (d = c->next; d; d = d->next) {
                const char *b = d->string ? d->string : "";

                if (a[0] == b[0] && strcmp(a, b) == 0 &&
                    (!*dup || strcmp(a, *dup) < 0))
                    *dup = a;
            }
        }
        return *dup ? -1 : 0;
    }
    if (n > 32)
        keys = kp_xmalloc(n * sizeof(*keys));
    n = 0;
    for (c = obj->child; c; c = c->next)
        keys[n++] = c->string ? c->string : "";
    qsort(keys, n, sizeof(*keys), cmp_keys);
    for (i = 1; i < n; i++) {
        if (strcmp(keys[i - 1], keys[i]) == 0) {
            *dup = keys[i];
            rc = -1;
            break;
        }
    }
    if (keys != stack)
        free(keys);
    return rc;
}

/*
 * The path to the value being checked, kept as a stack of frames and only
 * formatted when there is an error (formatting it for every value cost a
 * tenth of the load time).
 */
struct vframe {
    bool in_object;
    const char *key;
    size_t index;
};

struct vpath {
    struct vframe *f;
    size_t n, cap;
};

static void
vpath_push(struct vpath *p, const cJSON *parent, const char *key, size_t i)
{
    if (p->n == p->cap) {
        p->cap = p->cap ? p->cap * 2 : 64;
        p->f = kp_xrealloc(p->f, p->cap * sizeof(*p->f));
    }
    p->f[p->n].in_object = cJSON_IsObject(parent);
    p->f[p->n].key = key ? key : "";
    p->f[p->n].index = i;
    p->n++;
}

static int
verr(struct kp_error *err, const struct vpath *p, const char *msg)
{
    char buf[512];
    size_t len = 0, k;

    buf[0] = '\0';
    for (k = 0; k < p->n && len < sizeof(buf) - 1; k++) {
        int n;

        if (p->f[k].in_object)
            n = snprintf(buf + len, sizeof(buf) - len, "%s%s",
                         len ? "." : "", p->f[k].key);
        else
            n = snprintf(buf + len, sizeof(buf) - len, "[%zu]",
                         p->f[k].index);
        if (n < 0)
            break;
        len = (size_t)n < sizeof(buf) - len ? len + (size_t)n
                                            : sizeof(buf) - 1;
    }
    if (len)
        return kp_errorf(err, KP_EXIT_ERROR, "%s: %s", buf, msg);
    return kp_errorf(err, KP_EXIT_ERROR, "%s", msg);
}

static int
validate(const cJSON *v, int depth, int max_depth, const char *skip,
         bool ascii, struct vpath *p, struct kp_error *err)
{
    const cJSON *c;
    const char *dup;
    size_t i = 0, saved = p->n;

    if (depth > max_depth)
        return verr(err, p, "nesting too deep");
    if (!ascii && cJSON_IsString(v) &&
        !utf8_valid((const unsigned char *)v->valuestring))
        return verr(err, p, "invalid UTF-8 in a string");
    if (cJSON_IsNumber(v) && !isfinite(v->valuedouble))
        return verr(err, p, "number out of range");
    if (cJSON_IsObject(v) && check_dup_keys(v, &dup) < 0) {
        vpath_push(p, v, dup, 0);
        return verr(err, p, "duplicate key");
    }
    for (c = v->child; c; c = c->next, i++) {
        vpath_push(p, v, c->string, i);
        if (!ascii && cJSON_IsObject(v) && c->string &&
            !utf8_valid((const unsigned char *)c->string))
            return verr(err, p, "invalid UTF-8 in a key");
        if (!(skip && cJSON_IsObject(v) && c->string &&
              strcmp(c->string, skip) == 0) &&
            validate(c, depth + 1, max_depth, NULL, ascii, p, err) < 0)
            return -1;
        p->n = saved;
    }
    return 0;
}

int
kp_json_validate(const cJSON *root, int max_depth, struct kp_error *err)
{
    return kp_json_validate_at(root, 0, max_depth, NULL, err);
}

int
kp_json_validate_at(const cJSON *v, int depth, int max_depth,
                    const char *skip, struct kp_error *err)
{
    return kp_json_validate_ascii_at(v, depth, max_depth, skip, false, err);
}

int
kp_json_validate_ascii_at(const cJSON *v, int depth, int max_depth,
                          const char *skip, bool ascii, struct kp_error *err)
{
    struct vpath p = {NULL, 0, 0};
    int rc = validate(v, depth, max_depth, skip, ascii, &p, err);

    free(p.f);
    return rc;
}

/* ---- the raw text ---- */

static bool
is_digit(char c)
{
    return c >= '0' && c <= '9';
}

static bool
number_char(char c)
{
    return is_digit(c) || c == '-' || c == '+' || c == '.' || c == 'e' ||
           c == 'E';
}

static size_t
skip_digits(const char *s, size_t i, size_t n)
{
    while (i < n && is_digit(s[i]))
        i++;
    return i;
}

/* RFC 8259: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)? */
static bool
number_ok(const char *s, size_t n)
{
    size_t i = 0;

    if (i < n && s[i] == '-')
        i++;
    if (i == n || !is_digit(s[i]))
        return false;
    i = s[i] == '0' ? i + 1 : skip_digits(s, i, n);
    if (i < n && s[i] == '.') {
        if (++i == n || !is_digit(s[i]))
            return false;
        i = skip_digits(s, i, n);
    }
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        if (++i < n && (s[i] == '+' || s[i] == '-'))
            i++;
        if (i == n || !is_digit(s[i]))
            return false;
        i = skip_digits(s, i, n);
    }
    return i == n;
}

static int
scan_fail(size_t *at, const char **what, size_t where, const char *msg)
{
    *at = where;
    *what = msg;
    return -1;
}

/*
 * The scan's two inner loops, 16 bytes at a time where SSE2 is there
 * (every x86-64): the next byte of a string that is a quote, a backslash
 * or a control character, and the next byte that is not a space (kubectl
 * indents).  Both return len when the run reaches the end.
 */
static size_t
string_run(const char *buf, size_t i, size_t len, int *hi)
{
#if defined(__SSE2__)
    const __m128i quote = _mm_set1_epi8('"'), bslash = _mm_set1_epi8('\\');
    const __m128i ctl = _mm_set1_epi8(0x1F);

    for (; i + 16 <= len; i += 16) {
        __m128i x = _mm_loadu_si128((const __m128i *)(const void *)(buf + i));
        __m128i m = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(x, quote),
                                              _mm_cmpeq_epi8(x, bslash)),
                                 _mm_cmpeq_epi8(_mm_min_epu8(x, ctl), x));
        int bits = _mm_movemask_epi8(m);

        /* bytes of 0x80 and above (some past the run: an over-estimate) */
        *hi |= _mm_movemask_epi8(x);
        if (bits)
            return i + (size_t)__builtin_ctz((unsigned)bits);
    }
#endif
    while (i < len && buf[i] != '"' && buf[i] != '\\' &&
           (unsigned char)buf[i] >= 0x20) {
        *hi |= (unsigned char)buf[i] >= 0x80;
        i++;
    }
    return i < len ? i : len;
}

static size_t
space_run(const char *buf, size_t i, size_t len)
{
#if defined(__SSE2__)
    const __m128i space = _mm_set1_epi8(' ');

    for (; i + 16 <= len; i += 16) {
        __m128i x = _mm_loadu_si128((const __m128i *)(const void *)(buf + i));
        unsigned bits = ~(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(x, space))
                        & 0xFFFFu;

        if (bits)
            return i + (size_t)__builtin_ctz(bits);
    }
#endif
    while (i < len && buf[i] == ' ')
        i++;
    return i;
}

static int
hex4(const char *s, size_t n, unsigned *out)
{
    size_t k;

    *out = 0;
    if (n < 4)
        return -1;
    for (k = 0; k < 4; k++) {
        char c = s[k];
        unsigned d = c >= '0' && c <= '9' ? (unsigned)(c - '0')
                     : c >= 'a' && c <= 'f' ? (unsigned)(c - 'a' + 10)
                     : c >= 'A' && c <= 'F' ? (unsigned)(c - 'A' + 10) : 16;

        if (d == 16)
            return -1;
        *out = *out << 4 | d;
    }
    return 0;
}

/*
 * A \u escape at buf[i] (the backslash): a UTF-16 surrogate must come
 * as a high one followed by a low one, as RFC 8259 spells a character
 * beyond the BMP; anything else is "lone surrogate" (a string the API
 * server would not have produced, and cJSON would refuse with no
 * word on why).  Returns the bytes to skip, or 0 for a lone surrogate.
 */
static size_t
unicode_escape(const char *buf, size_t i, size_t len)
{
    unsigned u, lo;

    if (hex4(buf + i + 2, len - i - 2, &u) < 0 || u < 0xD800 || u > 0xDFFF)
        return 2;
    if (u >= 0xDC00)
        return 0;
    if (i + 12 <= len && buf[i + 6] == '\\' && buf[i + 7] == 'u' &&
        hex4(buf + i + 8, len - i - 8, &lo) == 0 && lo >= 0xDC00 &&
        lo <= 0xDFFF)
        return 12;
    return 0;
}

#define SCAN_MAX_TRACKED 4096     /* levels whose bracket is matched */

/*
 * One value from buf[i]: objects and arrays to their closing bracket (of
 * the same kind),
 * strings and numbers checked; anything else (true, false, null, junk) is
 * left to cJSON.  On success *at is the offset just after the value.
 */
static int
scan_from(const char *buf, size_t len, size_t i, int max_depth, size_t *at,
          const char **what, struct kp_json_marks *marks)
{
    int depth = 0, hi = 0;
    /* which bracket opened each level (bit set: '['), to match closers */
    unsigned char opened[SCAN_MAX_TRACKED / 8] = {0};

    while (i < len) {
        char c = buf[i];

        if (c == ' ') {
            i = space_run(buf, i + 1, len);
            continue;
        }
        if (c == '"') {
            for (i = string_run(buf, i + 1, len, &hi);
                 i < len && buf[i] != '"'; i = string_run(buf, i, len, &hi)) {
                size_t skip = 2;    /* a backslash and what it escapes */

                if (buf[i] == '\0')
                    return scan_fail(at, what, i, "NUL byte");
                if ((unsigned char)buf[i] < 0x20)
                    return scan_fail(at, what, i,
                                     "control character in a string");
                if (i + 1 < len && buf[i + 1] == 'u')
                    skip = unicode_escape(buf, i, len);
                if (!skip)
                    return scan_fail(at, what, i, "lone surrogate");
                i += skip;
            }
            if (i >= len)
                break;
            i++;
        } else if (c == '-' || is_digit(c)) {
            size_t start = i;

            while (i < len && number_char(buf[i]))
                i++;
            if (i == len && depth > 0)
                break;
            if (!number_ok(buf + start, i - start))
                return scan_fail(at, what, start, "invalid number");
        } else if (c == '{' || c == '[') {
            if (++depth > max_depth)
                return scan_fail(at, what, i, "nesting too deep");
            if (depth <= SCAN_MAX_TRACKED) {
                unsigned bit = 1u << ((depth - 1) % 8);

                if (c == '[')
                    opened[(depth - 1) / 8] |= (unsigned char)bit;
                else
                    opened[(depth - 1) / 8] &= (unsigned char)~bit;
            }
            i++;
        } else if (c == '}' || c == ']') {
            if (depth > 0 && depth <= SCAN_MAX_TRACKED) {
                bool array = opened[(depth - 1) / 8] >> ((depth - 1) % 8) & 1;

                if (array != (c == ']'))
                    return scan_fail(at, what, i, array ? "expected ']'"
                                                        : "expected '}'");
            }
            i++;
            if (--depth <= 0) {
                *at = i;
                if (marks)
                    marks->non_ascii = hi != 0;
                return 0;
            }
        } else {
            hi |= (unsigned char)c >= 0x80;
            if (depth == 0) {
                *at = i;
                if (marks)
                    marks->non_ascii = hi != 0;
                return 0;
            }
            if (c == ',' && depth == 1 && marks) {
                if (marks->n == marks->cap) {
                    marks->cap = marks->cap ? marks->cap * 2 : 1024;
                    marks->off = kp_xrealloc(marks->off, marks->cap *
                                             sizeof(*marks->off));
                }
                marks->off[marks->n++] = i;
            }
            i++;
        }
        if (depth == 0) {
            *at = i;
            if (marks)
                marks->non_ascii = hi != 0;
            return 0;
        }
    }
    return scan_fail(at, what, len, "truncated input");
}

int
kp_json_scan(const char *buf, size_t len, int max_depth, size_t *at,
             const char **what)
{
    size_t i = 0;

    if (len >= 3 && memcmp(buf, "\xEF\xBB\xBF", 3) == 0)
        i = 3;          /* cJSON skips a byte order mark */
    if (i == len || (buf[i] != '{' && buf[i] != '['))
        return 0;
    return scan_from(buf, len, i, max_depth, at, what, NULL);
}

int
kp_json_scan_value(const char *buf, size_t len, int max_depth, size_t *at,
                   const char **what)
{
    return scan_from(buf, len, 0, max_depth, at, what, NULL);
}

int
kp_json_scan_marks(const char *buf, size_t len, int max_depth, size_t *at,
                   const char **what, struct kp_json_marks *marks)
{
    return scan_from(buf, len, 0, max_depth, at, what, marks);
}

/* ---- parse trees in an arena ---- */

static _Thread_local struct kp_arena *tree_arena;

static void *
tree_malloc(size_t n)
{
    return tree_arena ? kp_arena_alloc_uninit(tree_arena, n) : malloc(n);
}

static void
tree_free(void *p)
{
    if (!tree_arena)
        free(p);
}

void
kp_json_arena_hooks(bool on)
{
    cJSON_Hooks h = {tree_malloc, tree_free};

    cJSON_InitHooks(on ? &h : NULL);
}

void
kp_json_tree_arena(struct kp_arena *a)
{
    tree_arena = a;
}
