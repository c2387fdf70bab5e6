/*
 * files.c - the files a program writes, put back (see files.h).
 */
#define _GNU_SOURCE
#include "checkpoint/files.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

typedef struct noted_file {
    int fd;
    dev_t dev; /* which file: the descriptor may stand for another by then */
    ino_t ino;
    off_t offset, size;
} noted_file;

GArray *ckpt_files_note(void) {
    DIR *dir = opendir("/proc/self/fd");
    if (!dir)
        return NULL;
    GArray *noted = NULL;
    for (struct dirent *e; (e = readdir(dir)) != NULL;) {
        if (e->d_name[0] < '0' || e->d_name[0] > '9')
            continue;
        int fd = atoi(e->d_name);
        struct stat st;
        int flags = fcntl(fd, F_GETFL);
        if (fd == dirfd(dir) || flags < 0 || (flags & O_ACCMODE) == O_RDONLY ||
            fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_nlink == 0)
            continue;
        off_t offset = lseek(fd, 0, SEEK_CUR);
        if (offset < 0)
            continue;
        if (!noted)
            noted = g_array_new(FALSE, FALSE, sizeof(noted_file));
        noted_file f = {fd, st.st_dev, st.st_ino, offset, st.st_size};
        g_array_append_val(noted, f);
    }
    closedir(dir);
    return noted;
}

bool ckpt_files_put_back(const GArray *noted) {
    bool all = true;
    for (guint i = 0; noted && i < noted->len; i++) {
        const noted_file *f = &g_array_index(noted, noted_file, i);
        struct stat st;
        if (fstat(f->fd, &st) != 0 || st.st_dev != f->dev || st.st_ino != f->ino) {
            all = false; /* closed since: in-process snapshots cannot undo that */
            continue;
        }
        if (st.st_size != f->size && ftruncate(f->fd, f->size) != 0)
            continue;
        lseek(f->fd, f->offset, SEEK_SET);
    }
    return all;
}

void ckpt_files_free(GArray *noted) {
    if (noted)
        g_array_free(noted, TRUE);
}
