// The wide-character ncurses (ncursesw) as DemoTerminal uses it.
//
// NB: Swift 6 refuses C globals such as `stdscr`, `LINES` and `stdout` ("not concurrency-safe"),
// and does not import function-like macros such as `A_BOLD` or `COLOR_PAIR(n)`; the static inline
// functions below read or expand them. Only the main thread calls them.
#ifndef STATECRAFT_CNCURSESW_SHIM_H
#define STATECRAFT_CNCURSESW_SHIM_H

#define NCURSES_WIDECHAR 1
#ifndef _XOPEN_SOURCE_EXTENDED
#define _XOPEN_SOURCE_EXTENDED 1
#endif
#if __has_include(<ncursesw/curses.h>)
#include <ncursesw/curses.h>
#include <ncursesw/term.h>
#else
#include <curses.h>
#include <term.h>
#endif
#include <stdio.h>

// NB: declared by <wchar.h> only under _XOPEN_SOURCE, which the C library's module is not
// built with.
int wcwidth(wchar_t character);

/// The display cells a character takes under the current (thread's) locale; -1 when it can't
/// be printed.
static inline int statecraft_wcwidth(wchar_t character) { return wcwidth(character); }

static inline WINDOW *statecraft_stdscr(void) { return stdscr; }
static inline WINDOW *statecraft_curscr(void) { return curscr; }
static inline int statecraft_lines(void) { return LINES; }
static inline int statecraft_columns(void) { return COLS; }
static inline FILE *statecraft_stdin(void) { return stdin; }
static inline FILE *statecraft_stdout(void) { return stdout; }

/// A terminfo string capability of the current terminal, or "" when it has none.
static inline const char *statecraft_terminfo_string(const char *name) {
  char *value = tigetstr(name);
  return (value == 0 || value == (char *)-1) ? "" : value;
}

/// Frees the terminal description `setupterm` loaded (to ask what the terminal can do).
static inline void statecraft_release_terminfo(void) {
  del_curterm(cur_term);
}

/// The styles DemoTerminal draws with, as bits (see `TextStyle` in Swift).
enum {
  STATECRAFT_BOLD = 1,
  STATECRAFT_DIM = 2,
  STATECRAFT_INVERSE = 4,
  STATECRAFT_RED = 8,
  STATECRAFT_GREEN = 16,
  STATECRAFT_YELLOW = 32,
};

/// Sets up the three color pairs (red, green, yellow on the default background) if the terminal
/// has colors.
static inline void statecraft_start_colors(void) {
  if (!has_colors()) return;
  start_color();
  use_default_colors();
  init_pair(1, COLOR_RED, -1);
  init_pair(2, COLOR_GREEN, -1);
  init_pair(3, COLOR_YELLOW, -1);
}

/// Makes `style` (STATECRAFT_* bits) the attributes of what is written next to `window`.
static inline void statecraft_set_style(WINDOW *window, unsigned style) {
  attr_t attributes = A_NORMAL;
  short pair = 0;
  if (style & STATECRAFT_BOLD) attributes |= A_BOLD;
  if (style & STATECRAFT_DIM) attributes |= A_DIM;
  if (style & STATECRAFT_INVERSE) attributes |= A_REVERSE;
  if (has_colors()) {
    if (style & STATECRAFT_RED) pair = 1;
    else if (style & STATECRAFT_GREEN) pair = 2;
    else if (style & STATECRAFT_YELLOW) pair = 3;
  }
  wattr_set(window, attributes, pair, 0);
}

#endif
