/*
 * kube_version.h - the replayed kube-scheduler minor (kube_version.c).
 */
#ifndef KP_KUBE_VERSION_H
#define KP_KUBE_VERSION_H

#define KP_KUBE_MINOR_MIN 31
#define KP_KUBE_MINOR_MAX 38
/* what runs without --kube-version or a detected version */
#define KP_KUBE_MINOR_DEFAULT 37

/* The minor of "v1.34.2" / "1.34" (any, even unsupported), or -1. */
int kp_kube_version_minor(const char *s);

#endif
