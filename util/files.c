/*
 * files.c - bounded reads of regular files (see files.h).
 */
#define _GNU_SOURCE
#include "util/files.h"

#include <errno.h>
#include <fcntl.h>
#include <glib.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *kind_of(mode_t m) {
    return S_ISFIFO(m)   ? "a FIFO"
           : S_ISCHR(m)  ? "a character device"
           : S_ISBLK(m)  ? "a block device"
           : S_ISDIR(m)  ? "a directory"
           : S_ISSOCK(m) ? "a socket"
                         : "not a plain file";
}

int util_open_regular(const char *path, char **why) {
    /* O_NONBLOCK: opening a FIFO for reading would otherwise wait for a
     * writer; for a regular file the flag changes nothing. */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        *why = g_strdup(errno == ENOENT ? "no such file" : g_strerror(errno));
        return -1;
    }
    struct stat st;
    if (fstat(fd, &st) != 0) {
        *why = g_strdup(g_strerror(errno));
        close(fd);
        return -1;
    }
    if (!S_ISREG(st.st_mode)) {
        *why = g_strdup_printf("not a regular file (%s)", kind_of(st.st_mode));
        close(fd);
        return -1;
    }
    return fd;
}

bool util_read_regular(const char *path, size_t max, char **text, size_t *len, char **why) {
    int fd = util_open_regular(path, why);
    if (fd < 0)
        return false;
    GString *s = g_string_new(NULL);
    char buf[65536];
    bool ok = true;
    for (;;) {
        ssize_t n = read(fd, buf, sizeof buf);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            *why = g_strdup(g_strerror(errno));
            ok = false;
            break;
        }
        if (n == 0)
            break;
        if (s->len + (size_t)n > max) {
            *why = g_strdup_printf("larger than %zu bytes", max);
            ok = false;
            break;
        }
        g_string_append_len(s, buf, n);
    }
    close(fd);
    if (!ok) {
        g_string_free(s, TRUE);
        return false;
    }
    *len = s->len;
    *text = g_string_free(s, FALSE);
    return true;
}

char *util_printable(const char *text) {
    GString *s = g_string_new(NULL);
    const char *p = text ? text : "";
    while (*p) {
        gunichar c = g_utf8_get_char_validated(p, -1);
        if (c == (gunichar)-1 || c == (gunichar)-2) { /* not UTF-8: one byte */
            g_string_append_printf(s, "\\x%02x", (unsigned char)*p);
            p++;
            continue;
        }
        const char *next = g_utf8_next_char(p);
        if (c == '\n')
            g_string_append(s, "\\n");
        else if (c == '\r')
            g_string_append(s, "\\r");
        else if (c == '\t')
            g_string_append(s, "\\t");
        else if (c < 0x20 || c == 0x7f)
            g_string_append_printf(s, "\\x%02x", (unsigned)c);
        else
            g_string_append_len(s, p, next - p);
        p = next;
    }
    return g_string_free(s, FALSE);
}
