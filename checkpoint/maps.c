/*
 * maps.c - reading /proc/self/maps (see maps.h).
 */
#include "checkpoint/maps.h"

#include <glib.h>
#include <stdio.h>

bool ckpt_maps_each(bool (*fn)(const ckpt_mapping *m, void *user), void *user) {
    char *text = NULL;
    if (!g_file_get_contents("/proc/self/maps", &text, NULL, NULL))
        return false;
    bool go_on = true;
    for (char *line = text, *next; go_on && line && *line; line = next) {
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        unsigned long a, b, inode = 0;
        char perms[8] = "";
        int used = 0;
        if (sscanf(line, "%lx-%lx %7s %*s %*s %lu %n", &a, &b, perms, &inode, &used) < 4)
            continue;
        ckpt_mapping m = {a,
                          b,
                          perms[0] == 'r',
                          perms[1] == 'w',
                          perms[2] == 'x',
                          perms[3] == 'p',
                          inode != 0,
                          line + used};
        go_on = fn(&m, user);
    }
    g_free(text);
    return true;
}
