/*
 * The bridge to ncursesw. SwiftPM drops pkg-config's -D flags, so the wide-character API is
 * switched on here, before the include. Everything Swift cannot import (function-like macros,
 * global variables that Swift 6 would treat as shared mutable state) is wrapped in a static
 * inline function of the same meaning.
 */
#ifndef ROSTER_CNCURSESW_SHIM_H
#define ROSTER_CNCURSESW_SHIM_H

#ifndef NCURSES_WIDECHAR
#define NCURSES_WIDECHAR 1
#endif
#ifndef _XOPEN_SOURCE_EXTENDED
#define _XOPEN_SOURCE_EXTENDED 1
#endif

#include <locale.h>
#include <wchar.h>
#include <curses.h>
#include <term.h>

/* Declared here as well: glibc hides it unless _XOPEN_SOURCE was set before its headers,
   which a modular system header cannot see. */
extern int wcwidth(wchar_t character);
static inline int roster_wcwidth(unsigned int character) { return wcwidth((wchar_t)character); }

/* Globals, read through functions. */
static inline WINDOW *roster_stdscr(void) { return stdscr; }
static inline WINDOW *roster_curscr(void) { return curscr; }
static inline int roster_cols(void) { return COLS; }
static inline int roster_lines(void) { return LINES; }

/* Geometry macros. */
static inline int roster_getmaxy(WINDOW *window) { return getmaxy(window); }
static inline int roster_getmaxx(WINDOW *window) { return getmaxx(window); }

/* 1 when terminfo knows the terminal (NULL: $TERM) and it can move the cursor (cup); 0 when it
   cannot (TERM=dumb); -1 when terminfo does not know it. In the last two initscr would end the
   process or draw nothing. Reads terminfo only: nothing is written, the terminal's modes stay. */
static inline int roster_terminal_addresses_cursor(const char *name, int fd) {
    int status = 0;
    if (setupterm(name, fd, &status) != OK) return -1;
    const char *cup = tigetstr("cup");
    int addresses = cup != NULL && cup != (const char *)-1;
    del_curterm(cur_term);
    return addresses;
}

/* Keys. */
static inline int roster_key_f(int n) { return KEY_F(n); }

/* Attributes. */
static inline attr_t roster_a_normal(void) { return A_NORMAL; }
static inline attr_t roster_a_bold(void) { return A_BOLD; }
static inline attr_t roster_a_dim(void) { return A_DIM; }
static inline attr_t roster_a_reverse(void) { return A_REVERSE; }
static inline attr_t roster_a_underline(void) { return A_UNDERLINE; }
static inline attr_t roster_color_pair(int pair) { return (attr_t)COLOR_PAIR(pair); }
static inline int roster_wattrset(WINDOW *window, attr_t attributes) { return wattrset(window, (int)attributes); }
/* `count` copies of one single-column character in `attributes` from (row, column), across or
   down: one call (mvwhline_set, mvwvline_set) for a fill or a box's edge, where writing a string
   goes through ncurses' character handling cell by cell. ncurses renders a plain blank in the
   window's current attributes, so those are set too: without it a blank in the normal style
   took the style of whatever was drawn before it. */
static inline int roster_draw_line(WINDOW *window, int row, int column, attr_t attributes, wchar_t character,
                                   int count, int down) {
    wattrset(window, (int)attributes);
    cchar_t cell;
    wchar_t text[2] = { character, L'\0' };
    setcchar(&cell, text, attributes & ~A_COLOR, (short)PAIR_NUMBER(attributes), NULL);
    return down ? mvwvline_set(window, row, column, &cell, count) : mvwhline_set(window, row, column, &cell, count);
}

/* Gives `count` cells from (row, column) `attributes`, keeping their characters (mvwchgat): no
   character handling, one call for a row's cells. */
static inline int roster_restyle(WINDOW *window, int row, int column, int count, attr_t attributes) {
    return mvwchgat(window, row, column, count, attributes & ~A_COLOR, (short)PAIR_NUMBER(attributes), NULL);
}

/* Mouse. */
static inline mmask_t roster_button1_pressed(void) { return BUTTON1_PRESSED; }
static inline mmask_t roster_button1_released(void) { return BUTTON1_RELEASED; }
static inline mmask_t roster_button1_clicked(void) { return BUTTON1_CLICKED; }
static inline mmask_t roster_button1_double_clicked(void) { return BUTTON1_DOUBLE_CLICKED; }
static inline mmask_t roster_button4_pressed(void) { return BUTTON4_PRESSED; }
#ifdef BUTTON5_PRESSED
static inline mmask_t roster_button5_pressed(void) { return BUTTON5_PRESSED; }
#else
static inline mmask_t roster_button5_pressed(void) { return 0; }
#endif
static inline mmask_t roster_all_mouse_events(void) { return ALL_MOUSE_EVENTS; }

#endif
