/* The closed loop of bench/saturation.py in C, so that the load it makes costs the two
 * cores as little as possible (the door's workers need them).
 *
 * saturation.py's Python client signs the callers up and brings them to the game screen,
 * then executes this program with the connected sockets inherited (it says "ready"):
 *
 *     keyloop SECONDS FAILED FIRST LOOP FD...
 *
 * FAILED: callers whose set-up failed (counted with the failed ones).  FIRST and LOOP are
 * keys in hex, comma-separated (FIRST may be "-": none).  The start
 * time (seconds since the epoch) is read from stdin.  From then on, until SECONDS have
 * passed, each socket is sent its next key as soon as the previous one's answer has come:
 * an answer is whatever can be read when the socket turns readable (the first bytes
 * back, as the Python client counts it).  One epoll over all sockets, one thread.
 * Printed on stdout, as one JSON line: keys answered, this process's CPU (user, system
 * seconds) over the measured seconds, every tenth latency in seconds of each socket, and
 * the sockets that failed (closed, or an error).
 *
 * Compiled by saturation.py with the machine's cc -O2 into a temporary folder. */

#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define MAX_KEYS 64
#define MAX_KEY_LEN 16

typedef struct {
    int count;
    unsigned char bytes[MAX_KEYS][MAX_KEY_LEN];
    int len[MAX_KEYS];
} Keys;

typedef struct {
    int fd;
    long next;    /* index of the next key to send */
    double sent;  /* when the key now waiting for its answer was sent */
    int waiting;  /* a key is out */
    int dead;
} Caller;

/* This process's (user, system) CPU seconds so far. */
static void cpu_used(double *user, double *system) {
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    *user = ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6;
    *system = ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
}

static double now(clockid_t clock) {
    struct timespec ts;
    clock_gettime(clock, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int hexval(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* "1b5b43,68,0d" into keys; "-" is none. */
static int parse_keys(const char *text, Keys *keys) {
    keys->count = 0;
    if (strcmp(text, "-") == 0) return 0;
    const char *p = text;
    while (*p) {
        if (keys->count == MAX_KEYS) return -1;
        int n = 0;
        while (*p && *p != ',') {
            int hi = hexval(p[0]), lo = p[1] ? hexval(p[1]) : -1;
            if (hi < 0 || lo < 0 || n == MAX_KEY_LEN) return -1;
            keys->bytes[keys->count][n++] = (unsigned char)(hi * 16 + lo);
            p += 2;
        }
        if (n == 0) return -1;
        keys->len[keys->count++] = n;
        if (*p == ',') p++;
    }
    return 0;
}

static const Keys *first_keys, *loop_keys;

/* Send caller c its next key: FIRST once, then LOOP over and over. */
static int send_next(Caller *c) {
    long i = c->next;
    const unsigned char *key;
    int len;
    if (i < first_keys->count) {
        key = first_keys->bytes[i];
        len = first_keys->len[i];
    } else {
        long j = (i - first_keys->count) % loop_keys->count;
        key = loop_keys->bytes[j];
        len = loop_keys->len[j];
    }
    c->sent = now(CLOCK_MONOTONIC);
    if (send(c->fd, key, len, MSG_NOSIGNAL) != len) return -1;
    c->next++;
    c->waiting = 1;
    return 0;
}

int main(int argc, char **argv) {
    if (argc < 6) {
        fprintf(stderr, "usage: keyloop SECONDS FAILED FIRST LOOP FD...\n");
        return 2;
    }
    double seconds = atof(argv[1]);
    int failed = atoi(argv[2]), out = 0;
    static Keys first, loop;
    if (parse_keys(argv[3], &first) || parse_keys(argv[4], &loop) || loop.count == 0) {
        fprintf(stderr, "keyloop: keys are hex, comma-separated\n");
        return 2;
    }
    first_keys = &first;
    loop_keys = &loop;
    int n = argc - 5;
    Caller *callers = calloc(n, sizeof *callers);
    /* every tenth latency of each caller: at most one a 10 µs, generously bounded */
    size_t cap = 1 << 20, samples = 0;
    double *latencies = malloc(cap * sizeof *latencies);
    int ep = epoll_create1(0);
    if (!callers || !latencies || ep < 0) {
        perror("keyloop");
        return 1;
    }
    for (int i = 0; i < n; i++) {
        callers[i].fd = atoi(argv[5 + i]);
        struct epoll_event ev = {.events = EPOLLIN, .data.u32 = (unsigned)i};
        if (epoll_ctl(ep, EPOLL_CTL_ADD, callers[i].fd, &ev) < 0) {
            perror("keyloop: epoll_ctl");
            return 1;
        }
    }
    printf("ready\n");  /* the run reads the start time after this */
    fflush(stdout);
    double start_at;
    if (scanf("%lf", &start_at) != 1) {
        fprintf(stderr, "keyloop: no start time on stdin\n");
        return 2;
    }
    double wait = start_at - now(CLOCK_REALTIME);
    if (wait > 0) {
        struct timespec ts = {(time_t)wait, (long)((wait - (time_t)wait) * 1e9)};
        nanosleep(&ts, NULL);
    }
    double end_at = now(CLOCK_MONOTONIC) + seconds - (wait < 0 ? -wait : 0);
    double user0, system0, user1 = 0, system1 = 0;
    cpu_used(&user0, &system0);
    long keys = 0;
    for (int i = 0; i < n; i++) {
        if (send_next(&callers[i]) < 0) {
            callers[i].dead = 1;
            failed++;
        } else {
            out++;
        }
    }
    static unsigned char buf[65536];
    struct epoll_event events[256];
    int stopping = 0;
    while (out > 0) {
        int ready = epoll_wait(ep, events, 256, 100);
        if (ready < 0) {
            if (errno == EINTR) continue;
            perror("keyloop: epoll_wait");
            return 1;
        }
        double t = now(CLOCK_MONOTONIC);
        if (t >= end_at && !stopping) {
            stopping = 1;
            cpu_used(&user1, &system1);
        }
        if (stopping && ready == 0) break;  /* the last answers are in (or never come) */
        for (int e = 0; e < ready; e++) {
            Caller *c = &callers[events[e].data.u32];
            if (c->dead) continue;
            /* everything there is: a read that fills the buffer may leave more behind */
            ssize_t got, total = 0;
            while ((got = recv(c->fd, buf, sizeof buf, MSG_DONTWAIT)) == sizeof buf)
                total += got;
            if (got > 0) total += got;
            if (got == 0 || (got < 0 && errno != EAGAIN && errno != EWOULDBLOCK)) {
                c->dead = 1;
                failed++;
                out -= c->waiting;
                epoll_ctl(ep, EPOLL_CTL_DEL, c->fd, NULL);
                continue;
            }
            if (total == 0 || !c->waiting) continue;
            c->waiting = 0;
            out--;
            if (c->next % 10 == 1 && samples < cap) latencies[samples++] = t - c->sent;
            if (!stopping) {
                keys++;
                if (send_next(c) < 0) {
                    c->dead = 1;
                    failed++;
                } else {
                    out++;
                }
            }
        }
    }
    if (!stopping) cpu_used(&user1, &system1);
    printf("{\"keys\": %ld, \"cpu\": [%.6f, %.6f], \"latencies\": [", keys, user1 - user0,
           system1 - system0);
    for (size_t i = 0; i < samples; i++) printf(i ? ",%.7f" : "%.7f", latencies[i]);
    printf("], \"errors\": [%s], \"failed\": %d}\n",
           failed ? "\"a caller's line closed or failed\"" : "", failed);
    return 0;
}
