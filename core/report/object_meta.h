/*
 * object_meta.h - the "metadata" member every reported item carries
 * (issue 29): the ObjectMeta fields of the pod it describes
 * (k8s.io/apimachinery pkg/apis/meta/v1 types.go, ObjectMeta), so that
 * kubectl's idioms ({.items[*].metadata.name}, custom-columns
 * NAME:.metadata.name, --sort-by .metadata.name) reach it.
 */
#ifndef KP_OBJECT_META_H
#define KP_OBJECT_META_H

#include "buf.h"
#include "model.h"

/*
 * Appends "\"metadata\": {...}" for a pod: name, namespace, uid,
 * labels and creationTimestamp, every member present, null where the
 * input has no value (the report's one rule).  p may be NULL (a pod the
 * snapshot no longer has: explain): then ns, name and uid are what the
 * evidence named and labels and creationTimestamp are null.
 */
void kp_json_object_meta(struct kp_buf *b, const struct kp_pod *p,
                         const char *ns, const char *name, const char *uid);

/* RFC 3339 in UTC, whole seconds, as metav1.Time marshals ("...Z") */
void kp_format_rfc3339(int64_t ns, char *buf, size_t n);

#endif
