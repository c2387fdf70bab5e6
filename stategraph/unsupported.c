/*
 * unsupported.c - the MPI functions a program calls that ordex does not
 * implement, located in its source.
 */
#include "stategraph/unsupported.h"

#include <string.h>

#include "scheduler/symbolize.h"
#include "scheduler/unsupported.h"

static void unsupported_free(gpointer p) {
    sg_unsupported *u = p;
    g_free(u->function);
    g_strfreev(u->locations);
    g_free(u);
}

GPtrArray *sg_program_unsupported(const char *so, char **err) {
    GPtrArray *missing = sched_missing_mpi_functions(so, err);
    if (!missing)
        return NULL;
    GPtrArray *out = g_ptr_array_new_with_free_func(unsupported_free);
    for (guint i = 0; i < missing->len; i++) {
        const sched_missing_fn *m = g_ptr_array_index(missing, i);
        sg_unsupported *u = g_new0(sg_unsupported, 1);
        u->function = g_strdup(m->name);
        GPtrArray *locs = g_ptr_array_new();
        for (int k = 0; k < m->nsites; k++) {
            const char *l = sched_symbolize_offset(so, m->sites[k], false);
            bool seen = false;
            for (guint j = 0; l && j < locs->len && !seen; j++)
                seen = strcmp(g_ptr_array_index(locs, j), l) == 0;
            if (l && !seen)
                g_ptr_array_add(locs, g_strdup(l));
        }
        g_ptr_array_add(locs, NULL);
        u->locations = (char **)g_ptr_array_free(locs, FALSE);
        g_ptr_array_add(out, u);
    }
    g_ptr_array_free(missing, TRUE);
    return out;
}

char *sg_unsupported_message(GPtrArray *unsupported) {
    GString *s = g_string_new(NULL);
    for (guint i = 0; i < unsupported->len; i++) {
        const sg_unsupported *u = g_ptr_array_index(unsupported, i);
        if (i == 1)
            g_string_append(s, " (nor ");
        else if (i > 1)
            g_string_append(s, ", ");
        else
            g_string_append(s, "the program calls ");
        g_string_append(s, u->function);
        if (u->locations[0])
            g_string_append_printf(s, " at %s", u->locations[0]);
        if (i == 0)
            g_string_append(s, ", which ordex does not implement");
    }
    if (unsupported->len > 1)
        g_string_append(s, ")");
    return g_string_free(s, FALSE);
}
