/*
 * What must run inside a signal handler, and so must be C: the terminal is given back on
 * every way out (SIGINT/SIGTERM/SIGHUP are forwarded to the app, which quits cleanly; a crash
 * restores the saved termios and the screen modes itself before the default action runs).
 */
#ifndef ROSTER_TERMINAL_GUARD_H
#define ROSTER_TERMINAL_GUARD_H

/* Saves the terminal's current settings (tcgetattr on fd) for restoration on a crash. */
int roster_guard_save_terminal(int fd);

/* Writes every caught signal's number as one byte to write_fd (a non-blocking pipe):
   SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGWINCH, SIGTSTP, SIGCONT. */
int roster_guard_forward_signals(int write_fd);
/* Gives the forwarded signals back their default actions (the terminal could not start). */
void roster_guard_stop_forwarding_signals(void);

/* On SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT, SIGFPE: leave the alternate screen, show the
   cursor, reset colours and mouse reporting, restore the saved termios, then die of the
   original signal (so a core dump and the exit status stay honest). */
int roster_guard_install_crash_handlers(void);

/* The same restoration, callable from normal code (used after endwin as a safety net). */
void roster_guard_restore_terminal(void);

/* Sends SIGTSTP to this process with its default action (stopping it), after the caller has
   given the terminal back; returns once the process is continued. */
void roster_guard_suspend_self(void);

#endif
