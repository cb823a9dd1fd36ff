/*
 * Crash protection for stack walks in a signal handler.
 *
 * AsyncGetCallTrace reads a thread's frames while the thread is stopped at an arbitrary
 * instruction, and can fault on frames it misreads. hpm_guarded_call runs such a walk with a
 * recovery point (sigsetjmp): a SIGSEGV or SIGBUS on the same thread while the walk runs returns
 * there (siglongjmp, restoring the signal mask), and the walk counts as failed. Every other fault
 * goes to the handler that was installed before ours (HotSpot's, which uses SIGSEGV for implicit
 * null checks and safepoint polls), with the same arguments.
 *
 * This is C because Rust cannot express setjmp, which returns twice.
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <signal.h>
#include <stddef.h>
#include <string.h>

/* The calling thread's recovery point while a guarded call runs. initial-exec TLS: one load
 * relative to the thread pointer, never a lazy allocation, so it can be read in a signal handler. */
static __thread sigjmp_buf *volatile recovery __attribute__((tls_model("initial-exec")));

static struct sigaction previous_segv;
static struct sigaction previous_bus;
static volatile unsigned long faults_caught;
static volatile int installed;

typedef void (*walk_fn)(void *trace, int depth, void *ucontext);

/* Runs f(trace, depth, ucontext); returns 0, or -1 if it faulted (and was abandoned). */
int hpm_guarded_call(walk_fn f, void *trace, int depth, void *ucontext) {
    sigjmp_buf here;
    if (sigsetjmp(here, 1) != 0) {
        recovery = NULL;
        return -1;
    }
    recovery = &here;
    f(trace, depth, ucontext);
    recovery = NULL;
    return 0;
}

static void pass_on(const struct sigaction *prev, int sig, siginfo_t *info, void *uc) {
    if (prev->sa_flags & SA_SIGINFO) {
        if (prev->sa_sigaction != NULL) {
            prev->sa_sigaction(sig, info, uc);
            return;
        }
    } else if (prev->sa_handler != SIG_DFL && prev->sa_handler != SIG_IGN) {
        prev->sa_handler(sig);
        return;
    }
    /* No handler before ours: the default action (the process ends, as it would have). */
    signal(sig, SIG_DFL);
    raise(sig);
}

static void on_fault(int sig, siginfo_t *info, void *uc) {
    sigjmp_buf *r = recovery;
    if (r != NULL) {
        recovery = NULL;
        __atomic_fetch_add(&faults_caught, 1, __ATOMIC_RELAXED);
        siglongjmp(*r, 1);
    }
    pass_on(sig == SIGSEGV ? &previous_segv : &previous_bus, sig, info, uc);
}

static int install_one(int sig, struct sigaction *previous) {
    struct sigaction ours;
    if (sigaction(sig, NULL, previous) != 0) {
        return -1;
    }
    /* The previous handler's mask and flags (HotSpot blocks most signals in its handler), so it
     * runs as it expects when we pass a fault on; SA_SIGINFO for our three arguments. */
    ours = *previous;
    ours.sa_sigaction = on_fault;
    ours.sa_flags = (previous->sa_flags & ~SA_RESETHAND) | SA_SIGINFO;
    return sigaction(sig, &ours, NULL);
}

/* Installs the fault handler for SIGSEGV and SIGBUS once; 0 on success. */
int hpm_install_fault_guard(void) {
    if (__atomic_load_n(&installed, __ATOMIC_ACQUIRE)) {
        return 0;
    }
    if (install_one(SIGSEGV, &previous_segv) != 0 || install_one(SIGBUS, &previous_bus) != 0) {
        return -1;
    }
    __atomic_store_n(&installed, 1, __ATOMIC_RELEASE);
    return 0;
}

/* Faults caught inside guarded calls so far. */
unsigned long hpm_faults_caught(void) {
    return __atomic_load_n(&faults_caught, __ATOMIC_RELAXED);
}
