/*
 * label_columns.c - kp_cluster_label_column (framework.h): one node label
 * read for every node at once, kept on the cluster for the run.  Moved
 * verbatim from cluster_state.c (issue 28).
 */
#include "framework.h"

#include <pthread.h>
#include <string.h>

static pthread_mutex_t column_lock = PTHREAD_MUTEX_INITIALIZER;

const char *const *
kp_cluster_label_column(const struct kp_cluster *cl, const char *key)
{
    struct kp_cluster *mcl = (struct kp_cluster *)(uintptr_t)cl;
    const char **col = NULL;
    size_t i, n = cl->snap->nnodes;

    /* independent mode asks from several threads at once */
    pthread_mutex_lock(&column_lock);
    for (i = 0; i < cl->ncolumns && !col; i++)
        if (cl->column_key[i] == key || strcmp(cl->column_key[i], key) == 0)
            col = cl->column[i];
    if (!col && cl->ncolumns < KP_MAX_COLUMNS) {
        col = kp_xmalloc((n + 1) * sizeof(*col));
        for (i = 0; i < n; i++)
            col[i] = kp_labels_get(&cl->nodes[i].node->labels, key);
        /* keys come from pods and the scratch arena: the column keeps a
         * copy */
        mcl->column_key[cl->ncolumns] = kp_xstrdup(key);
        mcl->column[mcl->ncolumns++] = col;
    }
    pthread_mutex_unlock(&column_lock);
    return col;
}
