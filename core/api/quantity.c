/*
 * quantity.c - resource.Quantity parsing and its int64 conversions.
 *
 * Mirrors staging/src/k8s.io/apimachinery/pkg/api/resource/quantity.go
 * (parseQuantityString, ParseQuantity, UnmarshalJSON, Value, MilliValue),
 * suffix.go (interpret) and the rounding of amount.go, math.go and
 * scale_int.go: away from zero, saturating at the int64 bounds.
 *
 * ParseQuantity computes the exact value through an int64 fast path or
 * inf.Dec and rounds it up to nano units; both paths agree on the result,
 * so this file computes it once, as a magnitude in nano units (see
 * quantity.h).  The one place where the path matters is a number with no
 * digit at all (".", "-", "Ki"): the fast path reads it as 0, inf.Dec
 * rejects it; takes_dec_path() tells which one upstream would take.
 */
#include "quantity.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NANO_PER_MILLI 1000000u
#define NANO_PER_UNIT 1000000000u

/* 10^37 nano units (10^28 units): the saturation point of the magnitude. */
#define NANO_CAP ((unsigned __int128)10000000000000000000u * \
                  (unsigned __int128)1000000000000000000u)
/* maxAllowed (2^63-1) in nano units: the BinarySI cap of ParseQuantity. */
#define NANO_MAX_ALLOWED ((unsigned __int128)INT64_MAX * NANO_PER_UNIT)

/* parseQuantityString's output: sign, numerator, denominator, suffix. */
struct parsed {
    bool negative;
    const char *num;    /* integer digits after the leading zeros */
    size_t nnum;
    const char *den;    /* digits after the point */
    size_t nden;
    bool digits;        /* the number holds at least one digit */
    const char *suffix;
    size_t nsuffix;
};

/* quantitySuffixer.interpret's output. */
struct suffix {
    int64_t exp;        /* power of 10, or of 2 when binary */
    bool binary;        /* BinarySI: Ki Mi Gi Ti Pi Ei */
};

static const struct {
    const char *name;
    int exp;
    bool binary;
} suffix_table[] = {
    { "", 0, false }, { "n", -9, false }, { "u", -6, false },
    { "m", -3, false }, { "k", 3, false }, { "M", 6, false },
    { "G", 9, false }, { "T", 12, false }, { "P", 15, false },
    { "E", 18, false }, { "Ki", 10, true }, { "Mi", 20, true },
    { "Gi", 30, true }, { "Ti", 40, true }, { "Pi", 50, true },
    { "Ei", 60, true },
};

/* Characters unicode.IsSpace accepts beyond ASCII, as UTF-8. */
static const char *const unicode_spaces[] = {
    "\xc2\x85", "\xc2\xa0", "\xe1\x9a\x80", "\xe2\x80\x80", "\xe2\x80\x81",
    "\xe2\x80\x82", "\xe2\x80\x83", "\xe2\x80\x84", "\xe2\x80\x85",
    "\xe2\x80\x86", "\xe2\x80\x87", "\xe2\x80\x88", "\xe2\x80\x89",
    "\xe2\x80\x8a", "\xe2\x80\xa8", "\xe2\x80\xa9", "\xe2\x80\xaf",
    "\xe2\x81\x9f", "\xe3\x80\x80",
};

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

static bool
is_digit(char c)
{
    return c >= '0' && c <= '9';
}

static size_t
span_digits(const char *s, size_t pos, size_t end)
{
    while (pos < end && is_digit(s[pos]))
        pos++;
    return pos;
}

int
kp_parse_int64(const char *s, size_t n, int64_t *out)
{
    uint64_t v = 0, lim = INT64_MAX;
    bool neg = false;
    size_t i = 0;

    if (n > 0 && (s[0] == '+' || s[0] == '-')) {
        neg = s[0] == '-';
        lim += neg;
        i = 1;
    }
    if (i >= n)
        return -1;
    for (; i < n; i++) {
        uint64_t d = (uint64_t)(s[i] - '0');

        if (!is_digit(s[i]) || v > (lim - d) / 10)
            return -1;
        v = v * 10 + d;
    }
    if (neg)
        *out = v > INT64_MAX ? INT64_MIN : -(int64_t)v;
    else
        *out = (int64_t)v;
    return 0;
}

/* The suffix part of parseQuantityString, from pos: letters, sign, digits. */
static int
split_suffix(const char *s, size_t pos, size_t end, struct parsed *p)
{
    size_t start = pos;

    while (pos < end && strchr("eEinumkKMGTP", s[pos]))
        pos++;
    if (pos < end && (s[pos] == '-' || s[pos] == '+'))
        pos++;
    pos = span_digits(s, pos, end);
    if (pos < end)
        return -1;      /* ErrFormatWrong */
    p->suffix = s + start;
    p->nsuffix = end - start;
    return 0;
}

/* parseQuantityString: the scanner ahead of ParseQuantity. */
static int
split_quantity(const char *s, size_t end, struct parsed *p)
{
    size_t pos = 0, start;

    memset(p, 0, sizeof(*p));
    p->num = p->den = p->suffix = s + end;
    if (end > 0 && (s[0] == '-' || s[0] == '+')) {
        p->negative = s[0] == '-';
        pos++;
    }
    start = pos;
    while (pos < end && s[pos] == '0')
        pos++;
    p->digits = pos > start;
    if (pos >= end) {
        p->digits = true;       /* upstream returns the value "0" */
        return 0;
    }
    start = pos;
    pos = span_digits(s, pos, end);
    p->num = s + start;
    p->nnum = pos - start;
    if (pos < end && s[pos] == '.') {
        start = ++pos;
        pos = span_digits(s, pos, end);
        p->den = s + start;
        p->nden = pos - start;
    }
    p->digits = p->digits || p->nnum > 0 || p->nden > 0;
    return split_suffix(s, pos, end, p);
}

/*
 * quantitySuffixer.interpret, with the int32 bound on "e<int>" exponents
 * of current upstream (#141203): [-MaxInt32, MaxInt32].
 */
static int
interpret_suffix(const char *s, size_t n, struct suffix *out)
{
    int64_t e;
    size_t i;

    for (i = 0; i < NELEM(suffix_table); i++) {
        if (strlen(suffix_table[i].name) == n &&
            memcmp(suffix_table[i].name, s, n) == 0) {
            out->exp = suffix_table[i].exp;
            out->binary = suffix_table[i].binary;
            return 0;
        }
    }
    if (n < 2 || (s[0] != 'e' && s[0] != 'E') ||
        kp_parse_int64(s + 1, n - 1, &e) < 0 || e < -INT32_MAX ||
        e > INT32_MAX)
        return -1;      /* ErrSuffix */
    out->exp = e;
    out->binary = false;
    return 0;
}

/*
 * Whether ParseQuantity leaves its int64 fast path for inf.Dec (its
 * "precision" and "scale" tests).  Only asked about numbers without a
 * digit, whose fast-path product cannot overflow.
 */
static bool
takes_dec_path(const struct parsed *p, const struct suffix *sf)
{
    int64_t nnum = p->nnum ? (int64_t)p->nnum : 1;
    int64_t nden = (int64_t)p->nden;

    if (sf->binary)
        return nden > 0 || 15 - nnum - sf->exp * 3 / 10 - 1 < 0;
    return 18 - nnum - nden < 0 || sf->exp - nden < -9;
}

static unsigned __int128
sat_mul10_add(unsigned __int128 v, unsigned d)
{
    if (v >= NANO_CAP)
        return NANO_CAP;
    v = v * 10 + d;
    return v > NANO_CAP ? NANO_CAP : v;
}

static unsigned __int128
sat_shl(unsigned __int128 v, int sh)
{
    return v > (NANO_CAP >> sh) ? NANO_CAP : v << sh;
}

static unsigned __int128
sat_add(unsigned __int128 a, unsigned __int128 b)
{
    a += b;
    return a > NANO_CAP ? NANO_CAP : a;
}

/* Digit i of the numerator followed by the denominator. */
static unsigned
digit_at(const struct parsed *p, size_t i)
{
    char c = i < p->nnum ? p->num[i] : p->den[i - p->nnum];

    return (unsigned)(c - '0');
}

/* The integer spelled by digits [from, to), saturated. */
static unsigned __int128
digits_value(const struct parsed *p, size_t from, size_t to)
{
    unsigned __int128 v = 0;

    for (; from < to; from++)
        v = sat_mul10_add(v, digit_at(p, from));
    return v;
}

/*
 * ceil(f * 2^sh) for the fraction f = 0.<lead zeros><digits [from, to)>.
 * Long multiplication from the last digit: the carry out of the first
 * fractional digit is the integer part, any non-zero digit left behind is
 * the remainder.  carry < 2^sh, so every step fits 64 bits (sh <= 60).
 */
static unsigned __int128
frac_ceil(const struct parsed *p, size_t from, size_t to, uint64_t lead,
          int sh)
{
    uint64_t carry = 0;
    bool rest = false;

    while (to > from) {
        uint64_t v = ((uint64_t)digit_at(p, --to) << sh) + carry;

        rest = rest || v % 10 != 0;
        carry = v / 10;
    }
    for (; lead > 0 && carry != 0; lead--) {
        rest = rest || carry % 10 != 0;
        carry /= 10;
    }
    return (unsigned __int128)carry + rest;
}

/* |value| rounded up to nano units: ceil(digits * 10^k * 2^sh). */
static unsigned __int128
nano_magnitude(const struct parsed *p, const struct suffix *sf)
{
    size_t len = p->nnum + p->nden;
    int sh = sf->binary ? (int)sf->exp : 0;
    int64_t k = (sf->binary ? 0 : sf->exp) - (int64_t)p->nden + 9;
    unsigned __int128 n;
    uint64_t j;

    if (k >= 0) {
        n = digits_value(p, 0, len);
        for (; k > 0 && n != 0 && n < NANO_CAP; k--)
            n = sat_mul10_add(n, 0);
        return sat_shl(n, sh);
    }
    j = (uint64_t)-k;
    if (j >= len)
        return frac_ceil(p, 0, len, j - len, sh);
    n = sat_shl(digits_value(p, 0, len - (size_t)j), sh);
    return sat_add(n, frac_ceil(p, len - (size_t)j, len, 0, sh));
}

/* 10^9 * 2^64: what the low 64 bits of Value and MilliValue depend on */
#define MOD_NANO ((unsigned __int128)NANO_PER_UNIT << 64)

/* a * b mod MOD_NANO, both below it (< 2^94: doubling cannot overflow) */
static unsigned __int128
mulmod(unsigned __int128 a, unsigned __int128 b)
{
    unsigned __int128 r = 0;
    int bit;

    for (bit = 127; bit >= 0; bit--) {
        r = (r << 1) % MOD_NANO;
        if ((b >> bit) & 1)
            r = (r + a) % MOD_NANO;
    }
    return r;
}

/* digits [from, to) modulo MOD_NANO */
static unsigned __int128
digits_mod(const struct parsed *p, size_t from, size_t to)
{
    unsigned __int128 r = 0;

    for (; from < to; from++)
        r = (r * 10 + digit_at(p, from)) % MOD_NANO;
    return r;
}

/*
 * The nano count modulo MOD_NANO of a decimal quantity too large for
 * nano_magnitude to hold exactly: digits * 10^k rounded up, k = exponent
 * - fraction digits + 9.  (A binary one is capped at 2^63-1, held.)
 */
static unsigned __int128
nano_mod(const struct parsed *p, const struct suffix *sf)
{
    size_t len = p->nnum + p->nden;
    int64_t k = sf->exp - (int64_t)p->nden + 9;
    unsigned __int128 r, b = 10;
    uint64_t e, j;

    if (k >= 0) {
        r = digits_mod(p, 0, len);
        for (e = (uint64_t)k; e > 0; e >>= 1) {
            if (e & 1)
                r = mulmod(r, b);
            b = mulmod(b, b);
        }
        return r;
    }
    j = (uint64_t)-k;
    if (j >= len)
        return frac_ceil(p, 0, len, j - len, 0);
    return (digits_mod(p, 0, len - (size_t)j) +
            frac_ceil(p, len - (size_t)j, len, 0, 0)) % MOD_NANO;
}

/*
 * Which of ParseQuantity's two forms holds the quantity: its int64 fast
 * path (an int64Amount: "precision" >= 0, a scale of at least nano, the
 * digits times a binary suffix within int64) or inf.Dec.
 */
static void
set_form(const struct parsed *p, const struct suffix *sf,
         struct kp_quantity *q)
{
    int64_t nnum = p->nnum ? (int64_t)p->nnum : 1;  /* num "0" */
    int64_t nden = (int64_t)p->nden;
    uint64_t v = (uint64_t)digits_value(p, 0, p->nnum + p->nden);
    int64_t scale;

    q->dec = true;
    q->dscale = 9;
    q->iscale = 0;
    q->ival = 0;
    if (sf->binary) {
        /* exponent*3/10 in float32, as upstream: exact for 10..60 */
        if (nden > 0 || 15 - nnum - sf->exp * 3 / 10 - 1 < 0 ||
            (sf->exp > 0 && v > (uint64_t)INT64_MAX >> sf->exp))
            return;
        q->dec = false;
        q->ival = (int64_t)(v << sf->exp);
    } else {
        scale = sf->exp - nden;
        if (18 - nnum - nden < 0 || scale < -9)
            return;
        q->dec = false;
        q->ival = (int64_t)v;           /* at most 18 digits */
        q->iscale = (int32_t)scale;
    }
    if (p->negative)
        q->ival = -q->ival;
}

/* ParseQuantity on s[0:n]; -1 where upstream returns an error. */
static int
parse_span(const char *s, size_t n, struct kp_quantity *q)
{
    struct parsed p;
    struct suffix sf;

    memset(q, 0, sizeof(*q));
    if (n == 0 || split_quantity(s, n, &p) < 0 ||
        interpret_suffix(p.suffix, p.nsuffix, &sf) < 0)
        return -1;
    if (!p.digits)
        return takes_dec_path(&p, &sf) ? -1 : 0;   /* SetString fails */
    q->nano = nano_magnitude(&p, &sf);
    if (sf.binary && q->nano > NANO_MAX_ALLOWED)
        q->nano = NANO_MAX_ALLOWED;
    q->negative = p.negative && q->nano != 0;
    set_form(&p, &sf, q);
    q->mod = q->nano < NANO_CAP ? q->nano % MOD_NANO : nano_mod(&p, &sf);
    return 0;
}

int
kp_quantity_parse(const char *s, struct kp_quantity *q,
                  struct kp_error *err)
{
    if (!s)
        s = "";
    if (parse_span(s, strlen(s), q) < 0)
        return kp_errorf(err, KP_EXIT_ERROR, "invalid quantity '%s'", s);
    return 0;
}

/* Length of the leading (at_end false) or trailing space of s[0:n]. */
static size_t
space_len(const char *s, size_t n, bool at_end)
{
    size_t i;

    if (n > 0 && s[at_end ? n - 1 : 0] == ' ')
        return 1;
    for (i = 0; i < NELEM(unicode_spaces); i++) {
        size_t len = strlen(unicode_spaces[i]);

        if (n >= len &&
            memcmp(s + (at_end ? n - len : 0), unicode_spaces[i], len) == 0)
            return len;
    }
    return 0;
}

/*
 * strings.TrimSpace as UnmarshalJSON applies it to the raw JSON text.
 * ASCII control whitespace can only come from an escape ("\t") or from
 * JSON the API server rejects, and escapes reach UnmarshalJSON
 * undecoded, so those are not trimmed: the parse then fails as upstream.
 */
static int
parse_json_string(const char *s, struct kp_quantity *q,
                  struct kp_error *err)
{
    const char *b = s;
    size_t n = strlen(s), sp;

    while ((sp = space_len(b, n, false)) > 0) {
        b += sp;
        n -= sp;
    }
    while ((sp = space_len(b, n, true)) > 0)
        n -= sp;
    if (parse_span(b, n, q) < 0)
        return kp_errorf(err, KP_EXIT_ERROR, "invalid quantity '%s'", s);
    return 0;
}

/*
 * A bare JSON number as the API server sees its literal: integer-valued
 * doubles as plain digits, others as the shortest decimal that reads
 * back to the same double.
 */
static int
parse_json_number(double d, struct kp_quantity *q, struct kp_error *err)
{
    char buf[400];
    int prec;

    if (!isfinite(d))
        return kp_errorf(err, KP_EXIT_ERROR, "invalid quantity '%g'", d);
    snprintf(buf, sizeof(buf), "%.0f", d);
    for (prec = 1; strtod(buf, NULL) != d && prec <= 17; prec++)
        snprintf(buf, sizeof(buf), "%.*g", prec, d);
    return kp_quantity_parse(buf, q, err);
}

static int
invalid_json(const cJSON *j, struct kp_error *err)
{
    char *text = cJSON_PrintUnformatted(j);

    kp_errorf(err, KP_EXIT_ERROR, "invalid quantity '%s'",
              text ? text : "?");
    cJSON_free(text);
    return -1;
}

int
kp_quantity_from_json(const cJSON *j, struct kp_quantity *q,
                      struct kp_error *err)
{
    memset(q, 0, sizeof(*q));
    if (!j || cJSON_IsNull(j))
        return 0;
    if (cJSON_IsString(j) && j->valuestring)
        return parse_json_string(j->valuestring, q, err);
    if (cJSON_IsNumber(j))
        return parse_json_number(j->valuedouble, q, err);
    return invalid_json(j, err);
}

/* ceil(|q| / unit) with q's sign, saturated to the int64 range. */
static int64_t
scaled_value(const struct kp_quantity *q, uint64_t unit)
{
    unsigned __int128 m = q->nano / unit + (q->nano % unit != 0);

    if (!q->negative)
        return m > INT64_MAX ? INT64_MAX : (int64_t)m;
    if (m > INT64_MAX)
        return INT64_MIN;
    return -(int64_t)m;
}

int64_t
kp_quantity_milli_value(const struct kp_quantity *q)
{
    return scaled_value(q, NANO_PER_MILLI);
}

int64_t
kp_quantity_value(const struct kp_quantity *q)
{
    return scaled_value(q, NANO_PER_UNIT);
}

/* 10^e for 0 <= e <= 18 */
static uint64_t
pow10_u64(int e)
{
    uint64_t r = 1;

    while (e-- > 0)
        r *= 10;
    return r;
}

/*
 * Quantity.ScaledValue(target) before v1.38 (target 0: Value, -3:
 * MilliValue): see quantity.h.  Negative quantities never get here from
 * the decoders (refused at load, as the API server's validation does);
 * for them this mirrors the positive result.
 */
static int64_t
scaled_wrap(const struct kp_quantity *q, int target)
{
    uint64_t r, unit;

    if (q->nano == 0)
        return 0;
    if (!q->dec) {
        /* int64Amount.AsScaledInt64, its ok dropped */
        int64_t d = (int64_t)q->iscale - target, v = q->ival;
        uint64_t m = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;

        if (d < 0) {
            /* negativeScaleInt64: rounded away from zero */
            if (d <= -19)
                return v < 0 ? -1 : 1;
            unit = pow10_u64((int)-d);
            m = m / unit + (m % unit != 0);
            return v < 0 ? -(int64_t)m : (int64_t)m;
        }
        if (d == 0)
            return v;
        if (d == 1 || d == 2 || d == 3 || d == 6 || d == 9)
            return (int64_t)((uint64_t)v * pow10_u64((int)d));
        for (; d > 0; d--)
            if (__builtin_mul_overflow(v, 10, &v))
                return 0;
        return v;
    }
    /*
     * scaledValue(unscaled, dscale, -target): scaling down rounds up,
     * scaling up by at most 10^18 multiplies; either way the low 64 bits
     * of the result (big.Int.Int64, int64 products).  Scaling up by more,
     * int64(math.Pow10(n)) is out of range: amd64's conversion gives
     * INT64_MIN, the product INT64_MIN or 0 by the unscaled value's
     * parity, bit 9 - dscale of the nano count (known to bit 72 of mod).
     */
    if ((int64_t)q->dscale + target <= -19) {
        int64_t bit = 9 - (int64_t)q->dscale;

        r = bit <= 72 && ((q->mod >> bit) & 1) ? (uint64_t)1 << 63 : 0;
        return (int64_t)r;
    }
    unit = pow10_u64(9 + target);
    r = (uint64_t)(q->mod / unit) + (q->mod % unit != 0);
    return q->negative ? (int64_t)(0 - r) : (int64_t)r;
}

/* positiveScaleInt64's ok: v * 10^d within int64 (v > 0, d > 0) */
static bool
scale_fits(int64_t v, int64_t d, int64_t *out)
{
    for (; d > 0; d--)
        if (d > 19 || __builtin_mul_overflow(v, 10, &v))
            return false;
    *out = v;
    return true;
}

/* the inf.Dec scale of q: an int64Amount's AsDec is -scale */
static int32_t
dec_scale(const struct kp_quantity *q)
{
    return q->dec ? q->dscale : -q->iscale;
}

void
kp_quantity_add(struct kp_quantity *a, const struct kp_quantity *b)
{
    int64_t c;
    int32_t sa = dec_scale(a), sb = dec_scale(b);
    bool to_dec = false;

    if (!a->dec && !b->dec) {
        /* int64Amount.Add */
        if (b->ival == 0) {
            /* a unchanged */
        } else if (a->ival == 0) {
            a->ival = b->ival;
            a->iscale = b->iscale;
        } else if (a->iscale == b->iscale) {
            to_dec = __builtin_add_overflow(a->ival, b->ival, &a->ival);
        } else if (a->iscale > b->iscale) {
            to_dec = !scale_fits(a->ival, (int64_t)a->iscale - b->iscale,
                                 &c) ||
                     __builtin_add_overflow(c, b->ival, &c);
            if (!to_dec) {
                a->ival = c;
                a->iscale = b->iscale;
            }
        } else {
            to_dec = !scale_fits(b->ival, (int64_t)b->iscale - a->iscale,
                                 &c) ||
                     __builtin_add_overflow(a->ival, c, &c);
            if (!to_dec)
                a->ival = c;
        }
    } else {
        to_dec = true;
    }
    if (to_dec) {
        /* ToDec, then inf.Dec.Add: the larger scale */
        a->dec = true;
        a->dscale = sa > sb ? sa : sb;
        a->ival = 0;
        a->iscale = 0;
    }
    a->nano = sat_add(a->nano, b->nano);
    a->mod = (a->mod + b->mod) % MOD_NANO;
    a->negative = false;
}

void
kp_quantity_max(struct kp_quantity *a, const struct kp_quantity *b)
{
    bool either_dec = a->dec || b->dec;

    if (b->nano <= a->nano)
        return;
    *a = *b;
    if (either_dec && !a->dec) {
        a->dscale = -a->iscale;
        a->dec = true;
        a->ival = 0;
        a->iscale = 0;
    }
}

void
kp_quantity_scaled(struct kp_quantity *q, int64_t v, int scale)
{
    memset(q, 0, sizeof(*q));
    q->ival = v;
    q->iscale = scale;
    q->dscale = 9;
    q->nano = (unsigned __int128)v;
    for (; scale > -9; scale--)
        q->nano *= 10;
    q->mod = q->nano % MOD_NANO;
}

int64_t
kp_quantity_milli_value_wrap(const struct kp_quantity *q)
{
    return scaled_wrap(q, -3);
}

int64_t
kp_quantity_value_wrap(const struct kp_quantity *q)
{
    return scaled_wrap(q, 0);
}
