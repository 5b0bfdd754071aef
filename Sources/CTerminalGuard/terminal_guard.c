#include "terminal_guard.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>
#include <pthread.h>

static struct termios saved_termios;
static volatile sig_atomic_t have_saved_termios = 0;
static int saved_fd = 0;
static volatile sig_atomic_t forward_fd = -1;

/* Exit the alternate screen, show the cursor, reset attributes, stop mouse reporting,
   leave application keypad mode. Plain VT100/xterm sequences: no terminfo lookup is
   async-signal-safe. */
static const char reset_sequence[] =
    "\033[0m\033[?1000l\033[?1002l\033[?1003l\033[?1006l\033[?1049l\033[?25h\033[?1l\033>\r\n";

int roster_guard_save_terminal(int fd) {
    if (tcgetattr(fd, &saved_termios) != 0) return -1;
    saved_fd = fd;
    have_saved_termios = 1;
    return 0;
}

void roster_guard_restore_terminal(void) {
    if (!have_saved_termios) return;
    ssize_t ignored = write(saved_fd, reset_sequence, sizeof(reset_sequence) - 1);
    (void)ignored;
    tcsetattr(saved_fd, TCSAFLUSH, &saved_termios);
}

static void forward_signal(int signal_number) {
    int saved_errno = errno;
    if (forward_fd >= 0) {
        unsigned char byte = (unsigned char)signal_number;
        ssize_t ignored = write(forward_fd, &byte, 1);
        (void)ignored;
    }
    errno = saved_errno;
}

/* The signals that become the main loop's events. */
static const int forwarded_signals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGWINCH, SIGTSTP, SIGCONT};
#define FORWARDED_COUNT (sizeof forwarded_signals / sizeof forwarded_signals[0])

int roster_guard_forward_signals(int write_fd) {
    forward_fd = write_fd;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = forward_signal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    for (unsigned i = 0; i < FORWARDED_COUNT; i++) {
        if (sigaction(forwarded_signals[i], &action, NULL) != 0) return -1;
    }
    return 0;
}

void roster_guard_stop_forwarding_signals(void) {
    for (unsigned i = 0; i < FORWARDED_COUNT; i++) {
        signal(forwarded_signals[i], SIG_DFL);
    }
}

static void crash_handler(int signal_number) {
    roster_guard_restore_terminal();
    signal(signal_number, SIG_DFL);
    raise(signal_number);
}

int roster_guard_install_crash_handlers(void) {
    static const int signals[] = {SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT, SIGFPE};
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = crash_handler;
    sigemptyset(&action.sa_mask);
    /* SA_RESETHAND: a second fault inside the handler takes the default action at once. */
    action.sa_flags = SA_RESETHAND | SA_NODEFER;
    for (unsigned i = 0; i < sizeof signals / sizeof signals[0]; i++) {
        if (sigaction(signals[i], &action, NULL) != 0) return -1;
    }
    return 0;
}

void roster_guard_suspend_self(void) {
    struct sigaction previous, default_action;
    memset(&default_action, 0, sizeof default_action);
    default_action.sa_handler = SIG_DFL;
    sigemptyset(&default_action.sa_mask);
    sigaction(SIGTSTP, &default_action, &previous);
    /* SIGTSTP may be blocked in this thread; make sure it is delivered now. */
    sigset_t set, old;
    sigemptyset(&set);
    sigaddset(&set, SIGTSTP);
    pthread_sigmask(SIG_UNBLOCK, &set, &old);
    /* raise, not kill: a thread-directed signal is delivered before raise returns, so the
       process is stopped (and continued) before the forwarding handler comes back. */
    raise(SIGTSTP);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    sigaction(SIGTSTP, &previous, NULL);
}
