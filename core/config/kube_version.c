/*
 * kube_version.c - which kube-scheduler release is replayed
 * (--kube-version, or detected): the minors whose behaviour
 * ../shared/docs/scheduler-semantics.md section 17 documents, 1.31 to
 * 1.38.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "kp.h"
#include "kube_version.h"

int
kp_kube_version_parse(const char *s, int *minor, struct kp_error *err)
{
    const char *p = s;
    char *end;
    long major, mn;

    if (*p == 'v')
        p++;
    if (!isdigit((unsigned char)*p))
        goto bad;
    major = strtol(p, &end, 10);
    if (*end != '.' || !isdigit((unsigned char)end[1]))
        goto bad;
    mn = strtol(end + 1, &end, 10);
    if (*end == '.' && isdigit((unsigned char)end[1]))
        strtol(end + 1, &end, 10);
    if (*end != '\0' && *end != '-' && *end != '+')
        goto bad;
    if (major != 1 || mn < KP_KUBE_MINOR_MIN || mn > KP_KUBE_MINOR_MAX)
        return kp_errorf(err, KP_EXIT_USAGE, "--kube-version %s: supported "
                         "versions are 1.%d to 1.%d", s, KP_KUBE_MINOR_MIN,
                         KP_KUBE_MINOR_MAX);
    if (minor)
        *minor = (int)mn;
    return 0;
bad:
    return kp_errorf(err, KP_EXIT_USAGE, "--kube-version %s: expected X.Y, "
                     "e.g. 1.35", s);
}

/* "v1.34.2" (kubeletVersion, gitVersion) to 34; -1 when it does not read */
int
kp_kube_version_minor(const char *s)
{
    struct kp_error err;
    int minor;

    if (!s)
        return -1;
    if (kp_kube_version_parse(s, &minor, &err) == 0)
        return minor;
    /* outside the range: still a version, for the message */
    if (*s == 'v')
        s++;
    if (strncmp(s, "1.", 2) != 0 || !isdigit((unsigned char)s[2]))
        return -1;
    return (int)strtol(s + 2, NULL, 10);
}
