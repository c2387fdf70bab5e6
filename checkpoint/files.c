/*
 * files.c - the files a program writes, put back (see files.h).
 */
#define _GNU_SOURCE
#include "checkpoint/files.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

typedef struct noted_file {
    int fd;
    dev_t dev; /* which file: the descriptor may stand for another by then */
    ino_t ino;
    off_t offset, size;
    char *data; /* the whole contents, when small and readable (NOTE_CONTENTS), else NULL */
} noted_file;

/* Files up to this size that the snapshot can read have their contents
 * noted too, so that bytes an ordering overwrote (MPI-IO writes at
 * explicit offsets, a scratch file rewritten in place) are put back. */
#define NOTE_CONTENTS (1 << 20)

/* The whole of the file, or NULL when it cannot be read. */
static char *read_all(int fd, off_t size) {
    char *data = g_malloc(size ? (size_t)size : 1);
    off_t at = 0;
    while (at < size) {
        ssize_t n = pread(fd, data + at, (size_t)(size - at), at);
        if (n <= 0) {
            g_free(data);
            return NULL;
        }
        at += n;
    }
    return data;
}

/* /proc/self/fd, opened once per process: a descriptor of it opened by a
 * parent lists the parent's descriptors.  Read with getdents64 into a
 * buffer on the stack: opendir would allocate 32 KiB on every fork. */
static int g_fd_dir = -1;
static pid_t g_fd_dir_pid;

static bool open_fd_dir(void) {
    if (g_fd_dir >= 0 && g_fd_dir_pid == getpid())
        return lseek(g_fd_dir, 0, SEEK_SET) == 0;
    if (g_fd_dir >= 0)
        close(g_fd_dir);
    g_fd_dir = open("/proc/self/fd", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    g_fd_dir_pid = getpid();
    return g_fd_dir >= 0;
}

static GArray *note_one(GArray *noted, int fd) {
    struct stat st;
    int flags = fcntl(fd, F_GETFL);
    if (fd == g_fd_dir || flags < 0 || (flags & O_ACCMODE) == O_RDONLY || fstat(fd, &st) != 0 ||
        !S_ISREG(st.st_mode) || st.st_nlink == 0)
        return noted;
    off_t offset = lseek(fd, 0, SEEK_CUR);
    if (offset < 0)
        return noted;
    if (!noted)
        noted = g_array_new(FALSE, FALSE, sizeof(noted_file));
    char *data = (flags & O_ACCMODE) == O_RDWR && st.st_size <= NOTE_CONTENTS
                     ? read_all(fd, st.st_size)
                     : NULL;
    noted_file f = {fd, st.st_dev, st.st_ino, offset, st.st_size, data};
    return g_array_append_val(noted, f);
}

GArray *ckpt_files_note(void) {
    if (!open_fd_dir())
        return NULL;
    GArray *noted = NULL;
    _Alignas(8) char buf[2048];
    for (long n; (n = syscall(SYS_getdents64, g_fd_dir, buf, sizeof buf)) > 0;)
        for (long at = 0; at < n;) {
            const struct dirent64 *e = (const struct dirent64 *)(const void *)(buf + at);
            if (e->d_name[0] >= '0' && e->d_name[0] <= '9')
                noted = note_one(noted, atoi(e->d_name));
            at += e->d_reclen;
        }
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
        for (off_t at = 0; f->data && at < f->size;) {
            ssize_t n = pwrite(f->fd, f->data + at, (size_t)(f->size - at), at);
            if (n <= 0)
                break;
            at += n;
        }
        lseek(f->fd, f->offset, SEEK_SET);
    }
    return all;
}

void ckpt_files_free(GArray *noted) {
    for (guint i = 0; noted && i < noted->len; i++)
        g_free(g_array_index(noted, noted_file, i).data);
    if (noted)
        g_array_free(noted, TRUE);
}
