/*
 * label_columns.c - kp_cluster_label_column (framework.h): one node label
 * read for every node at once, kept on the cluster for the run.  Moved
 * verbatim from cluster_state.c (issue 28).
 *
 * When a column stops holding: never while the cluster lives (a node's
 * labels do not change during a run); kp_cluster_free_caches frees the
 * columns.  At most KP_MAX_COLUMNS keys get one (NULL after that: the
 * caller reads the labels).  Made under a lock: independent mode asks
 * from several threads.  Each column has a twin of the labels' pair
 * hashes (kp_label.h), for the topology counters (tpcount.h).
 */
#include "framework.h"

#include <pthread.h>
#include <string.h>

static pthread_mutex_t column_lock = PTHREAD_MUTEX_INITIALIZER;

/* The column of key (made now if there is room), its hashes in *h. */
static const char *const *
column_of(const struct kp_cluster *cl, const char *key, const uint64_t **h)
{
    struct kp_caches *cc = cl->caches;
    const char **col = NULL;
    size_t i, n = cl->snap->nnodes;

    *h = NULL;
    /* independent mode asks from several threads at once */
    pthread_mutex_lock(&column_lock);
    for (i = 0; i < cc->ncolumns && !col; i++)
        if (cc->column_key[i] == key || strcmp(cc->column_key[i], key) == 0) {
            col = cc->column[i];
            *h = cc->column_h[i];
        }
    if (!col && cc->ncolumns < KP_MAX_COLUMNS) {
        uint64_t *ch = kp_xmalloc((n + 1) * sizeof(*ch));

        col = kp_xmalloc((n + 1) * sizeof(*col));
        for (i = 0; i < n; i++) {
            const struct kp_label *l =
                kp_labels_find(&cl->nodes[i].node->labels, key);

            col[i] = l ? l->value : NULL;
            ch[i] = l ? l->h : 0;
        }
        /* keys come from pods and the scratch arena: the column keeps a
         * copy */
        cc->column_key[cc->ncolumns] = kp_xstrdup(key);
        cc->column_h[cc->ncolumns] = ch;
        cc->column[cc->ncolumns++] = col;
        *h = ch;
    }
    pthread_mutex_unlock(&column_lock);
    return col;
}

const char *const *
kp_cluster_label_column(const struct kp_cluster *cl, const char *key)
{
    const uint64_t *h;

    return column_of(cl, key, &h);
}

const uint64_t *
kp_cluster_label_column_hash(const struct kp_cluster *cl, const char *key)
{
    const uint64_t *h;

    column_of(cl, key, &h);
    return h;
}
