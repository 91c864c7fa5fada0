/*
 * quantity.h - resource.Quantity as apimachinery parses it.
 *
 * Mirrors staging/src/k8s.io/apimachinery/pkg/api/resource/quantity.go:
 * the grammar (sign, digits with one optional point, decimal SI, binary SI
 * or exponent suffix), rounding up to nano units on parse, and the
 * conversions the scheduler uses: MilliValue (cpu) and Value (the rest),
 * both rounding up (away from zero), saturating at int64 bounds.
 */
#ifndef KP_QUANTITY_H
#define KP_QUANTITY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "error.h"

/*
 * Upstream holds either an int64 mantissa with a base-10 scale or an
 * inf.Dec; after parsing, both are the exact value rounded up (away from
 * zero) to a multiple of 10^-9.  That is all this keeps: the magnitude in
 * nano units, exact below 10^28 units, saturated at that point (far above
 * where every int64 conversion saturates).  negative is false for zero.
 */
struct kp_quantity {
    bool negative;
    unsigned __int128 nano;
    /*
     * How ParseQuantity holds it, which decides what Value() and
     * MilliValue() return past int64 before v1.38 (kp_quantity_*_wrap):
     * an int64Amount {ival, iscale} (its fast path: at most 18 digits, a
     * scale of at least nano) or an inf.Dec (dec), whose int64 results
     * are the low 64 bits of the exact ones.  mod is the exact count of
     * nano units modulo 10^9 * 2^64, which is all those low bits need,
     * however large the quantity.
     */
    bool dec;
    int32_t iscale;
    int32_t dscale;     /* the inf.Dec's scale: 9 from ParseQuantity */
    int64_t ival;
    unsigned __int128 mod;
};

/* Parse s; on failure: "invalid quantity '<s>'" (exit 1). */
int kp_quantity_parse(const char *s, struct kp_quantity *q,
                      struct kp_error *err);
/*
 * A JSON string, trimmed of spaces as UnmarshalJSON does, or a bare JSON
 * number (read as its shortest round-trip decimal).  NULL and JSON null
 * give zero, as UnmarshalJSON("null") does.  Other types, non-finite
 * numbers and bad strings fail with "invalid quantity '<s>'" (exit 1).
 */
int kp_quantity_from_json(const cJSON *j, struct kp_quantity *q,
                          struct kp_error *err);
/* ceil(q * 1000), saturated to the int64 range. */
int64_t kp_quantity_milli_value(const struct kp_quantity *q);
/* ceil(q), saturated to the int64 range. */
int64_t kp_quantity_value(const struct kp_quantity *q);
/*
 * The two above are Value() and MilliValue() from v1.38 on
 * (kubernetes/kubernetes#141305: they saturate).  Before, in every
 * release from 1.31 to 1.37, they overflow without a check; these return
 * what they did (apimachinery v0.31-v0.37 quantity.go ScaledValue):
 *  - an int64Amount {v, s} scaled by 10^d (d = s, or s + 3 for milli):
 *    d <= 0 exact (rounded up); d in 3, 6, 9 the product wrapped to 64
 *    bits (positiveScaleInt64's int64MultiplyScale cases); any other d the
 *    product if it fits, else 0 (its loop gives up), e.g. "100E" is 0;
 *  - an inf.Dec (19 digits or more, a fraction past nano, a binary suffix
 *    past int64): ceil(q) wrapped to 64 bits (scale_int.go scaledValue,
 *    big.Int.Int64), e.g. "9223372036854775808" is INT64_MIN.
 * Equal to the saturating ones whenever the result fits int64.
 */
int64_t kp_quantity_milli_value_wrap(const struct kp_quantity *q);
int64_t kp_quantity_value_wrap(const struct kp_quantity *q);

/*
 * The arithmetic of component-helpers' PodRequests, on non-negative
 * quantities, with the form it leaves (which the two above read):
 * kp_quantity_add is Quantity.Add (int64Amount.Add while the sum fits
 * int64 at the smaller scale, else inf.Dec at the larger inf scale);
 * kp_quantity_max is one step of maxResourceList, *a = max(*a, *b), where
 * b's Cmp turns b into an inf.Dec when either side is one (AsDec on the
 * receiver) and that copy is what is kept.  Comparisons are exact below
 * 10^28 units; past that, values compare equal (a is kept).
 */
void kp_quantity_add(struct kp_quantity *a, const struct kp_quantity *b);
void kp_quantity_max(struct kp_quantity *a, const struct kp_quantity *b);
/* NewScaledQuantity(v, scale), v >= 0 and scale >= -9: an int64Amount */
void kp_quantity_scaled(struct kp_quantity *q, int64_t v, int scale);

/*
 * strconv.ParseInt(s[0:n], 10, 64): optional sign, decimal digits only,
 * within the int64 range.  Returns 0 and sets *out, or -1.
 */
int kp_parse_int64(const char *s, size_t n, int64_t *out);

#endif
