/*
 * decode_event.c - the evidence "kubectl-preempt explain" reads: Events
 * of reason Preempted (core/v1: message, involvedObject, lastTimestamp;
 * events.k8s.io/v1: note, regarding, series, eventTime) and pods'
 * DisruptionTarget conditions set by the scheduler.
 *
 * Mirrors the writes of pkg/scheduler/framework/preemption/executor.go
 * (prepareCandidate: Eventf(victim, preemptor, Normal, "Preempted",
 * "Preempting", "Preempted by pod %v on node %v", ...) and the note
 * forms of older releases (parse_note below).  Other Events are
 * skipped without a look at their fields.
 */
#include <string.h>

#include "event.h"
#include "json_util.h"
#include "snapshot.h"

static void
push_event(struct kp_snapshot *s, struct kp_event *e)
{
    if (s->nevents == s->capevents) {
        s->capevents = s->capevents ? s->capevents * 2 : 16;
        s->events = kp_xrealloc(s->events,
                                s->capevents * sizeof(*s->events));
    }
    s->events[s->nevents++] = e;
}

static const char *
non_empty(const char *v)
{
    return v && v[0] ? v : NULL;
}

/* n bytes of s with no spaces or control characters. */
static bool
is_word(const char *s, size_t n)
{
    size_t i;

    for (i = 0; i < n; i++)
        if ((unsigned char)s[i] <= ' ' || s[i] == 0x7F)
            return false;
    return n > 0;
}

static int
decode_ref(struct kp_arena *a, const cJSON *obj, const char *key,
           struct kp_object_ref *r, struct kp_error *err)
{
    const cJSON *o;

    memset(r, 0, sizeof(*r));
    if (kp_json_obj(obj, key, &o, err) < 0)
        return -1;
    if (!o)
        return 0;
    if (kp_json_istr(a, o, "kind", &r->kind, err) < 0 ||
        kp_json_istr(a, o, "namespace", &r->ns, err) < 0 ||
        kp_json_istr(a, o, "name", &r->name, err) < 0 ||
        kp_json_istr(a, o, "uid", &r->uid, err) < 0)
        return kp_error_path(err, "%s", key);
    if ((r->ns && r->ns[0] && !is_word(r->ns, strlen(r->ns))) ||
        (r->name && r->name[0] && !is_word(r->name, strlen(r->name))) ||
        (r->uid && r->uid[0] && !is_word(r->uid, strlen(r->uid))))
        return kp_errorf(err, KP_EXIT_ERROR, "%s: invalid object reference: "
                         "no spaces or control characters allowed", key);
    r->kind = non_empty(r->kind);
    r->ns = non_empty(r->ns);
    r->name = non_empty(r->name);
    r->uid = non_empty(r->uid);
    return 0;
}

/*
 * "Preempted by pod <UID> on node <node>" (v1.29+), "Preempted by a pod
 * on node <node>" (v1.27-v1.28), "Preempted by <ns>/<name> on node
 * <node>" (up to v1.26.0).  False for any other text; a preemptor that
 * is not one word is left unknown.
 */
static bool
parse_note(struct kp_arena *a, const char *note, struct kp_event *e)
{
    static const char prefix[] = "Preempted by ";
    static const char on_node[] = " on node ";
    const char *who, *on, *slash, *end;
    size_t n, k;

    if (strncmp(note, prefix, sizeof(prefix) - 1) != 0)
        return false;
    who = note + sizeof(prefix) - 1;
    on = strstr(who, on_node);
    if (!on)
        return false;
    end = on + sizeof(on_node) - 1;
    for (n = 0; end[n] && is_word(end + n, 1); n++)
        ;
    while (n > 0 && end[n - 1] == '.')
        n--;
    if (n == 0)
        return false;
    e->node = kp_arena_strndup(a, end, n);
    n = (size_t)(on - who);
    slash = memchr(who, '/', n);
    k = slash ? (size_t)(slash - who) : 0;
    if (n > 4 && strncmp(who, "pod ", 4) == 0 && is_word(who + 4, n - 4)) {
        e->note_uid = kp_arena_strndup(a, who + 4, n - 4);
    } else if (slash && is_word(who, k) && is_word(slash + 1, n - k - 1)) {
        e->note_ns = kp_arena_strndup(a, who, k);
        e->note_name = kp_arena_strndup(a, slash + 1, n - k - 1);
    }
    return true;
}

/* The most recent time the Event records, by field precedence. */
static int
event_time(const cJSON *obj, struct kp_event *e, struct kp_error *err)
{
    static const char *const keys[] = {"lastTimestamp",
                                       "deprecatedLastTimestamp",
                                       "eventTime", "firstTimestamp",
                                       "deprecatedFirstTimestamp"};
    const cJSON *series, *md;
    size_t i;

    if (kp_json_obj(obj, "series", &series, err) < 0)
        return -1;
    if (kp_json_time(series, "lastObservedTime", &e->time, &e->has_time,
                     err) < 0)
        return kp_error_path(err, "series");
    for (i = 0; !e->has_time && i < sizeof(keys) / sizeof(keys[0]); i++)
        if (kp_json_time(obj, keys[i], &e->time, &e->has_time, err) < 0)
            return -1;
    if (e->has_time)
        return 0;
    if (kp_json_obj(obj, "metadata", &md, err) < 0)
        return -1;
    if (kp_json_time(md, "creationTimestamp", &e->time, &e->has_time,
                     err) < 0)
        return kp_error_path(err, "metadata");
    return 0;
}

static int
event_count(const cJSON *obj, struct kp_event *e, struct kp_error *err)
{
    static const char *const keys[] = {"count", "deprecatedCount"};
    const cJSON *series;
    int64_t v = 0;
    bool set = false;
    size_t i;

    if (kp_json_obj(obj, "series", &series, err) < 0)
        return -1;
    if (kp_json_int(series, "count", 0, INT32_MAX, &v, &set, err) < 0)
        return kp_error_path(err, "series");
    for (i = 0; !set && i < sizeof(keys) / sizeof(keys[0]); i++)
        if (kp_json_int(obj, keys[i], 0, INT32_MAX, &v, &set, err) < 0)
            return -1;
    e->count = set && v > 0 ? (int32_t)v : 1;
    return 0;
}

/* The note, for either API version; NULL when the Event is not ours. */
static int
event_note(struct kp_arena *a, const cJSON *obj, const char **note,
           struct kp_error *err)
{
    const char *reason;

    *note = NULL;
    if (kp_json_str(a, obj, "reason", &reason, err) < 0)
        return -1;
    if (!reason || strcmp(reason, "Preempted") != 0)
        return 0;
    if (kp_json_get(obj, "note"))
        return kp_json_str(a, obj, "note", note, err);
    return kp_json_str(a, obj, "message", note, err);
}

/*
 * A FailedScheduling or Scheduled Event of a pod, kept for explain (the
 * run ignores it: it stays counted with the ignored kinds).
 */
static int
failed_scheduling(struct kp_snapshot *s, const cJSON *obj,
                  const char *source, bool v1, const cJSON *ns,
                  struct kp_error *err)
{
    struct kp_event *e;
    const char *reason;

    if (kp_json_str(&s->arena, obj, "reason", &reason, err) < 0)
        return -1;
    if (!reason || (strcmp(reason, "FailedScheduling") != 0 &&
                    strcmp(reason, "Scheduled") != 0))
        return 0;
    e = kp_arena_alloc(&s->arena, sizeof(*e));
    e->type = strcmp(reason, "Scheduled") == 0 ? KP_EVENT_SCHEDULED
                                                : KP_EVENT_FAILED_SCHEDULING;
    e->source = source;
    if (kp_json_str(&s->arena, obj, kp_json_get(obj, "note") ? "note" :
                    "message", &e->message, err) < 0 ||
        decode_ref(&s->arena, obj, v1 ? "regarding" : "involvedObject",
                   &e->regarding, err) < 0 ||
        event_time(obj, e, err) < 0 || event_count(obj, e, err) < 0)
        return -1;
    if (!e->message || !e->regarding.name ||
        (e->regarding.kind && strcmp(e->regarding.kind, "Pod") != 0))
        return 0;
    if (!e->regarding.ns)
        e->regarding.ns = cJSON_IsString(ns) && ns->valuestring[0] ?
                          kp_arena_intern(&s->arena, ns->valuestring) :
                          "default";
    push_event(s, e);
    return 0;
}

int
kp_snapshot_add_event(struct kp_snapshot *s, const cJSON *obj,
                      const char *source, struct kp_error *err)
{
    struct kp_event *e;
    const cJSON *md = kp_json_get(obj, "metadata");
    const cJSON *ns = kp_json_get(md, "namespace");
    const char *note;
    bool v1 = kp_json_get(obj, "regarding") != NULL;

    if (event_note(&s->arena, obj, &note, err) < 0)
        return -1;
    if (!note) {
        s->nunknown_kinds++;    /* counted with the ignored kinds */
        return failed_scheduling(s, obj, source, v1, ns, err);
    }
    e = kp_arena_alloc(&s->arena, sizeof(*e));
    if (!parse_note(&s->arena, note, e)) {
        s->nunknown_kinds++;    /* kubelet's critical-pod preemption */
        return 0;
    }
    e->type = KP_EVENT_PREEMPTED;
    e->source = source;
    e->message = note;
    if (decode_ref(&s->arena, obj, v1 ? "regarding" : "involvedObject",
                   &e->regarding, err) < 0 ||
        decode_ref(&s->arena, obj, "related", &e->related, err) < 0 ||
        event_time(obj, e, err) < 0 || event_count(obj, e, err) < 0)
        return -1;
    if (!e->regarding.name ||
        (e->regarding.kind && strcmp(e->regarding.kind, "Pod") != 0))
        return 0;
    if (!e->regarding.ns)
        e->regarding.ns = cJSON_IsString(ns) && ns->valuestring[0] ?
                          kp_arena_intern(&s->arena, ns->valuestring) :
                          "default";
    if (e->related.kind && strcmp(e->related.kind, "Pod") != 0)
        memset(&e->related, 0, sizeof(e->related));
    if (e->related.name && !e->related.ns)
        e->related.ns = e->regarding.ns;
    push_event(s, e);
    return 0;
}

void
kp_snapshot_note_disruption(struct kp_snapshot *s, const cJSON *obj,
                            const struct kp_pod *p)
{
    const cJSON *status = kp_json_get(obj, "status");
    const cJSON *conds = kp_json_get(status, "conditions"), *c;
    struct kp_event *e;

    if (!p->preemption_target)
        return;
    e = kp_arena_alloc(&s->arena, sizeof(*e));
    e->type = KP_EVENT_DISRUPTION_TARGET;
    e->source = p->source;
    e->regarding.kind = "Pod";
    e->regarding.ns = p->ns;
    e->regarding.name = p->name;
    e->regarding.uid = non_empty(p->uid);
    e->node = p->node_name;
    e->count = 1;
    cJSON_ArrayForEach(c, conds) {
        const cJSON *type = kp_json_get(c, "type");
        const cJSON *msg = kp_json_get(c, "message");

        if (!cJSON_IsString(type) ||
            strcmp(type->valuestring, "DisruptionTarget") != 0)
            continue;
        if (cJSON_IsString(msg))
            e->message = kp_arena_strdup(&s->arena, msg->valuestring);
        /* decode_pod.c has checked the rest; a bad time is left out */
        if (kp_json_time(c, "lastTransitionTime", &e->time, &e->has_time,
                         NULL) < 0)
            e->has_time = false;
        break;
    }
    push_event(s, e);
}
