/*
 * dist_wire.c - frames over the sockets between a rank's ordex processes
 * and its agent (see dist_proto.h).
 */
#define _GNU_SOURCE
#include "stategraph/dist_proto.h"

#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

/* Writes all of iov (a frame is never split between writers: each socket
 * has one writer on each side at a time). */
static bool write_all(int fd, struct iovec *iov, int n, int pass_fd) {
    bool first = true;
    while (n > 0) {
        struct msghdr m = {0};
        m.msg_iov = iov;
        m.msg_iovlen = (size_t)n;
        union {
            struct cmsghdr align;
            char buf[CMSG_SPACE(sizeof(int))];
        } ctl;
        if (first && pass_fd >= 0) {
            memset(&ctl, 0, sizeof ctl);
            m.msg_control = ctl.buf;
            m.msg_controllen = sizeof ctl.buf;
            struct cmsghdr *c = CMSG_FIRSTHDR(&m);
            c->cmsg_level = SOL_SOCKET;
            c->cmsg_type = SCM_RIGHTS;
            c->cmsg_len = CMSG_LEN(sizeof(int));
            memcpy(CMSG_DATA(c), &pass_fd, sizeof(int));
        }
        ssize_t w = sendmsg(fd, &m, MSG_NOSIGNAL);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            return false;
        }
        first = false;
        while (n > 0 && (size_t)w >= iov->iov_len) {
            w -= (ssize_t)iov->iov_len;
            iov++;
            n--;
        }
        if (n > 0) {
            iov->iov_base = (char *)iov->iov_base + w;
            iov->iov_len -= (size_t)w;
        }
    }
    return true;
}

bool sgd_send_fd(int fd, uint32_t type, const void *payload, size_t len, int pass_fd) {
    if (len > UINT32_MAX)
        return false;
    uint32_t head[2] = {type, (uint32_t)len};
    struct iovec iov[2] = {{head, sizeof head}, {(void *)payload, len}};
    return write_all(fd, iov, len ? 2 : 1, pass_fd);
}

bool sgd_send(int fd, uint32_t type, const void *payload, size_t len) {
    return sgd_send_fd(fd, type, payload, len, -1);
}

/* Reads exactly len bytes; the first read may bring a descriptor. */
static bool read_all(int fd, void *to, size_t len, int *got_fd) {
    size_t done = 0;
    while (done < len) {
        struct iovec iov = {(char *)to + done, len - done};
        struct msghdr m = {0};
        m.msg_iov = &iov;
        m.msg_iovlen = 1;
        union {
            struct cmsghdr align;
            char buf[CMSG_SPACE(sizeof(int))];
        } ctl;
        if (got_fd) {
            m.msg_control = ctl.buf;
            m.msg_controllen = sizeof ctl.buf;
        }
        ssize_t r = recvmsg(fd, &m, MSG_CMSG_CLOEXEC);
        if (r < 0) {
            if (errno == EINTR)
                continue;
            return false;
        }
        if (r == 0)
            return false;
        if (got_fd && m.msg_controllen > 0) {
            struct cmsghdr *c = CMSG_FIRSTHDR(&m);
            if (c && c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS)
                memcpy(got_fd, CMSG_DATA(c), sizeof(int));
        }
        done += (size_t)r;
    }
    return true;
}

bool sgd_recv(int fd, uint32_t *type, GByteArray *payload, int *got_fd) {
    uint32_t head[2];
    if (got_fd)
        *got_fd = -1;
    if (!read_all(fd, head, sizeof head, got_fd))
        return false;
    *type = head[0];
    g_byte_array_set_size(payload, head[1]);
    return head[1] == 0 || read_all(fd, payload->data, head[1], NULL);
}
