/*
 * select.c - the pods a report shows: POD..., -n, -l (select.h).
 */
#include "select.h"

#include <stdio.h>
#include <string.h>

#include "selector_parse.h"

int
kp_select_init(struct kp_select *s, const struct kp_options *o,
               const char *default_ns, struct kp_arena *a,
               struct kp_error *err)
{
    memset(s, 0, sizeof(*s));
    s->o = o;
    s->default_ns = o->namespace ? o->namespace : default_ns;
    if (o->selector) {
        if (kp_selector_parse(a, o->selector, &s->sel, err) < 0)
            return -1;
        s->has_selector = true;
    }
    return 0;
}

bool
kp_select_namespace(const struct kp_select *s, const char *ns)
{
    const struct kp_options *o = s->o;

    return !o->namespace || o->all_namespaces ||
           (ns && strcmp(ns, o->namespace) == 0);
}

bool
kp_select_pod(const struct kp_select *s, const struct kp_pod *p)
{
    const struct kp_options *o = s->o;

    if (!kp_select_namespace(s, p->ns))
        return false;
    if (s->has_selector && !kp_selector_matches(&s->sel, &p->labels))
        return false;
    /* --config: --scheduler-name narrows what is reported */
    if (o->report_scheduler_name &&
        strcmp(p->scheduler_name, o->report_scheduler_name) != 0)
        return false;
    return true;
}

void
kp_select_split(const struct kp_select *s, const char *arg, char *ns,
                 size_t nsz, const char **name)
{
    const char *slash = strchr(arg, '/');

    if (slash) {
        size_t n = (size_t)(slash - arg);

        if (n >= nsz)
            n = nsz - 1;
        memcpy(ns, arg, n);
        ns[n] = '\0';
        *name = slash + 1;
    } else {
        snprintf(ns, nsz, "%s", s->default_ns);
        *name = arg;
    }
}

bool
kp_select_names(const struct kp_select *s, const char *arg, const char *ns,
                const char *name)
{
    const char *slash = strchr(arg, '/');

    if (!ns || !name)
        return false;
    if (!slash)
        return strcmp(ns, s->default_ns) == 0 && strcmp(name, arg) == 0;
    return strlen(ns) == (size_t)(slash - arg) &&
           strncmp(arg, ns, (size_t)(slash - arg)) == 0 &&
           strcmp(slash + 1, name) == 0;
}
