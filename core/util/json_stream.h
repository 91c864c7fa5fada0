/*
 * json_stream.h - split one List page (a PodList, a NodeList ...) into
 * its items while its bytes arrive, without holding the whole page.
 *
 * Fed arbitrary chunks (as curl's write callback receives them), the
 * splitter tracks the JSON structure with resumable state and hands each
 * element of the top-level "items" array to a callback as soon as its
 * last byte has arrived, after the RFC 8259 checks of kp_json_scan_value
 * (json_util.h).  It keeps only the bytes of the item in progress, and
 * the small members kind, apiVersion and metadata (whatever order the
 * members come in) to check the page and take its continue token.  Other
 * top-level members are skipped.
 */
#ifndef KP_JSON_STREAM_H
#define KP_JSON_STREAM_H

#include <stddef.h>

#include "error.h"
#include "redact.h"

/*
 * The largest object (one item of a page, or any other member of the
 * List) the splitter holds: 8 MiB.  The API server cannot store more:
 * etcd refuses a request over 1.5 MiB (--max-request-bytes) and the
 * API server a request body over 3 MiB (MaxRequestBodyBytes); an
 * object's JSON as served can outgrow what was written (status and
 * managedFields written by controllers, built-in kinds stored as
 * protobuf, which JSON spells out at length), hence the margin.
 * White space between the structural bytes is held to the same.
 */
#define KP_MAX_OBJECT_BYTES ((size_t)8 << 20)

/*
 * One item: its JSON text (len bytes, not NUL-terminated, borrowed for
 * the call) and its index in the page's items.  Return -1 with err set
 * to stop: kp_list_stream_feed() then fails with that error as is.
 */
typedef int (*kp_list_item_fn)(void *ctx, const char *text, size_t len,
                               long index, struct kp_error *err);

struct kp_list_stream;

/*
 * A splitter for pages whose kind must be list_kind ("PodList") and
 * apiVersion api_version when they say (NULL: anything).  Both are
 * borrowed and must outlive the splitter.  Never NULL (aborts on OOM).
 */
struct kp_list_stream *kp_list_stream_new(const char *list_kind,
                                          const char *api_version,
                                          kp_list_item_fn fn, void *ctx);
void kp_list_stream_free(struct kp_list_stream *ls);

/* Scrub the values quoted in messages of these credentials (borrowed). */
void kp_list_stream_set_redact(struct kp_list_stream *ls,
                               const struct kp_redact *r);

/* Forget the page read so far: the next byte starts a new page. */
void kp_list_stream_reset(struct kp_list_stream *ls);

/*
 * Feed the next n bytes of the page.  Returns 0, or -1 with err set to
 * one line saying what is wrong and where ("the response is not a
 * complete JSON object", "invalid JSON at byte 5123 (in items[3]): ...").
 * After an error every later call fails the same way until reset.
 */
int kp_list_stream_feed(struct kp_list_stream *ls, const char *data,
                        size_t n, struct kp_error *err);

/*
 * The page is over: 0 when it was one complete List object (followed by
 * white space only), else -1 with err set.
 */
int kp_list_stream_finish(struct kp_list_stream *ls, struct kp_error *err);

/*
 * After a successful finish: metadata.resourceVersion (what a watch
 * starts from: the list's "as of"), or NULL when the page has none.
 */
const char *kp_list_stream_resource_version(const struct kp_list_stream *ls);

/* After a successful finish: metadata.continue, or NULL on the last page. */
const char *kp_list_stream_continue(const struct kp_list_stream *ls);

/* Items seen in the current page so far. */
long kp_list_stream_nitems(const struct kp_list_stream *ls);

#endif
