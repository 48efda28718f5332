/* tty: ncursesw behind a screen model; terminal restore on every path. */
#include <dlfcn.h>
#include <errno.h>
#include <langinfo.h>
#include <link.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>
#include <wchar.h>

#if __has_include(<ncursesw/curses.h>)
#include <ncursesw/curses.h>
#else
#include <curses.h>
#endif
/* setupterm, set_curterm, del_curterm; term.h defines macros named like
 * terminfo capabilities, two of which clash with the screen model */
#if __has_include(<ncursesw/term.h>)
#include <ncursesw/term.h>
#else
#include <term.h>
#endif
#undef lines
#undef columns

#include "src/sys/clock.h"
#include "src/sys/mapguard.h"
#include "ui/report/sanitize.h"
#include "ui/tui/keytypes.h"
#include "ui/tui/mouse.h"
#include "ui/tui/tty.h"

static SCREEN *tty_screen;
static volatile sig_atomic_t tty_on;
static struct termios tty_saved;
static bool tty_have_saved;
static int tty_out = -1, tty_in = -1;
static chtype style_attr[ST__MAX];
/* a terminal that is not UTF-8 gets the text through to_ascii */
static bool tty_ascii;
static struct strbuf tty_conv;

/* What a crash handler writes: leave the alternate screen, show the
 * cursor, reset attributes.  Built once, written with write(2) only. */
static char restore_seq[256];
static size_t restore_len, rmcup_len;

static const int crash_signals[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT };
static struct sigaction crash_old[ARRAY_SIZE(crash_signals)];

/* leave_alt: also leave the alternate screen (rmcup comes first in
 * restore_seq). */
static void tty__raw_restore(bool leave_alt)
{
	size_t skip = leave_alt ? 0 : rmcup_len;

	if (restore_len > skip &&
	    write(tty_out, restore_seq + skip, restore_len - skip) < 0) {
		/* nothing else to try */
	}
	if (tty_have_saved)
		tcsetattr(tty_in, TCSANOW, &tty_saved);
}

/* Async-signal-safe: write(2) and tcsetattr(3) only; then the previous
 * handler (ASan's, say) or the default action runs. */
static void tty__crash(int sig, siginfo_t *si, void *uc)
{
	size_t i;

	/* a fault in a file that changed under its mapping: not a crash,
	 * the guarded read is cut short (mapguard.h) */
	mapguard__catch(sig);
	if (tty_on) {
		tty_on = 0;
		tty__raw_restore(true);
	}
	for (i = 0; i < ARRAY_SIZE(crash_signals); i++)
		if (crash_signals[i] == sig)
			break;
	mapguard__chain(sig, si, uc,
			i < ARRAY_SIZE(crash_signals) ? &crash_old[i] : NULL);
}

static void tty__install_crash(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = tty__crash;
	/* not SA_RESETHAND: a fault mapguard takes must find the handler
	 * in place the next time; a crash puts the old one back itself */
	sa.sa_flags = SA_SIGINFO | SA_NODEFER;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < ARRAY_SIZE(crash_signals); i++)
		sigaction(crash_signals[i], &sa, &crash_old[i]);
}

static void tty__remove_crash(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(crash_signals); i++)
		sigaction(crash_signals[i], &crash_old[i], NULL);
}

static void add_cap(const char *name)
{
	char *s = tigetstr(name);
	size_t n;

	if (!s || s == (char *)-1)
		return;
	n = strlen(s);
	if (restore_len + n < sizeof(restore_seq)) {
		memcpy(restore_seq + restore_len, s, n);
		restore_len += n;
	}
}

/* ---- the mouse ---- */

/* ncurses reports presses and releases apart (no click resolution: the
 * loop tells double clicks by time itself); 1002 adds motion while a
 * button is held (drags), which ncurses's own mouse string (XM, 1000)
 * leaves out. */
#define MOUSE_MASK (ALL_MOUSE_EVENTS | REPORT_MOUSE_POSITION)
#define MOUSE_DRAG_ON "\033[?1002h"
#define MOUSE_DRAG_OFF "\033[?1002l"

static bool tty_mouse = true, tty_mouse_active;
/* 1002 goes out after ncurses's own mouse string (1000, which would
 * turn it off), at the next draw */
static bool tty_drag_pending;
static struct mouse_state tty_mstate;
static struct mouse_event tty_mevent;

static void tty__mouse_apply(bool on)
{
	if (on == tty_mouse_active)
		return;
	mousemask(on ? MOUSE_MASK : 0, NULL);
	mouseinterval(0);
	if (!on)
		putp(MOUSE_DRAG_OFF);
	tty_drag_pending = on;
	tty_mouse_active = on;
}

void tty__set_mouse(bool on)
{
	tty_mouse = on;
	if (tty_on)
		tty__mouse_apply(on);
}

void tty__mouse(struct mouse_event *ev)
{
	*ev = tty_mevent;
}

/* Events of one report of ncurses that wait for the next tty__getkey (a
 * click it merged is a press, then a release). */
static struct mouse_event tty_mqueue[4];
static size_t tty_mq_nr, tty_mq_pos;

static void tty__mouse_push(int x, int y, enum mouse_button b,
			    enum mouse_kind k, int clicks)
{
	struct mouse_event ev;

	if (tty_mq_nr == ARRAY_SIZE(tty_mqueue) ||
	    !mouse__event(&tty_mstate, x, y, b, k, clock__now(), &ev))
		return;
	/* a double click ncurses resolved itself */
	if (k == MK_PRESS && clicks > 1)
		ev.clicks = 2;
	tty_mqueue[tty_mq_nr++] = ev;
}

/* The next queued event as K_MOUSE, or K_F(63) (nothing a view takes:
 * a motion with no button held) */
static int tty__mouse_next(void)
{
	if (tty_mq_pos == tty_mq_nr) {
		tty_mq_pos = tty_mq_nr = 0;
		return K_F(63);
	}
	tty_mevent = tty_mqueue[tty_mq_pos++];
	if (tty_mq_pos == tty_mq_nr)
		tty_mq_pos = tty_mq_nr = 0;
	return K_MOUSE;
}

/* KEY_MOUSE: ncurses's report as mouse events.  With mouseinterval 0 it
 * still merges a press and a release that came in one read into a
 * click (and two into a double click): they are split again, so that
 * every view sees presses and releases. */
static int tty__mouse_key(void)
{
	static const struct {
		mmask_t pressed, released, clicked, dbl, tpl;
		enum mouse_button b;
	} mbtn[] = {
		{ BUTTON1_PRESSED, BUTTON1_RELEASED, BUTTON1_CLICKED,
		  BUTTON1_DOUBLE_CLICKED, BUTTON1_TRIPLE_CLICKED, MB_LEFT },
		{ BUTTON2_PRESSED, BUTTON2_RELEASED, BUTTON2_CLICKED,
		  BUTTON2_DOUBLE_CLICKED, BUTTON2_TRIPLE_CLICKED, MB_MIDDLE },
		{ BUTTON3_PRESSED, BUTTON3_RELEASED, BUTTON3_CLICKED,
		  BUTTON3_DOUBLE_CLICKED, BUTTON3_TRIPLE_CLICKED, MB_RIGHT },
	};
	MEVENT me;

	if (getmouse(&me) != OK)
		return K_F(63);
	/* the wheel: a press of button 4 or 5 (clicked when merged) */
	if (me.bstate & (BUTTON4_PRESSED | BUTTON4_CLICKED))
		tty__mouse_push(me.x, me.y, MB_WHEEL_UP, MK_WHEEL, 1);
#ifdef BUTTON5_PRESSED
	else if (me.bstate & (BUTTON5_PRESSED | BUTTON5_CLICKED))
		tty__mouse_push(me.x, me.y, MB_WHEEL_DOWN, MK_WHEEL, 1);
#endif
	for (size_t i = 0; i < ARRAY_SIZE(mbtn); i++) {
		mmask_t m = me.bstate;

		if (m & mbtn[i].pressed)
			tty__mouse_push(me.x, me.y, mbtn[i].b, MK_PRESS, 1);
		if (m & (mbtn[i].clicked | mbtn[i].dbl |
			 mbtn[i].tpl)) {
			tty__mouse_push(me.x, me.y, mbtn[i].b, MK_PRESS,
					m & mbtn[i].clicked ? 1 : 2);
			tty__mouse_push(me.x, me.y, mbtn[i].b, MK_RELEASE,
					1);
		}
		if (m & mbtn[i].released)
			tty__mouse_push(me.x, me.y, mbtn[i].b, MK_RELEASE,
					1);
	}
	if ((me.bstate & REPORT_MOUSE_POSITION) && !tty_mq_nr)
		tty__mouse_push(me.x, me.y, MB_NONE, MK_DRAG, 1);
	return tty__mouse_next();
}

static void tty__atexit(void)
{
	tty__close();
}

/*
 * Sanitizer builds die through _exit, past atexit and signals: their
 * death callbacks restore the terminal's modes.  GCC loads ASan and UBSan as two
 * libraries, each with its own callback, so every loaded sanitizer
 * runtime gets it; a normal build has none.
 */
static void tty__sanitizer_death(void)
{
	/* the report is already on the alternate screen: stay there so
	 * that it can be read */
	if (tty_on) {
		tty_on = 0;
		tty__raw_restore(false);
	}
}

static int set_death_callback(struct dl_phdr_info *info, size_t size,
			      void *ctx)
{
	void (*set)(void (*)(void));
	void *h;

	(void)size;
	(void)ctx;
	if (!info->dlpi_name || !strstr(info->dlpi_name, "san"))
		return 0;
	h = dlopen(info->dlpi_name, RTLD_LAZY | RTLD_NOLOAD);
	if (!h)
		return 0;
	*(void **)&set = dlsym(h, "__sanitizer_set_death_callback");
	if (set)
		set(tty__sanitizer_death);
	dlclose(h);
	return 0;
}

extern void __sanitizer_set_death_callback(void (*cb)(void))
	__attribute__((weak));

static void tty__sanitizer_hooks(void)
{
	/* a static runtime (clang) is not a loaded library */
	if (__sanitizer_set_death_callback)
		__sanitizer_set_death_callback(tty__sanitizer_death);
	dl_iterate_phdr(set_death_callback, NULL);
}

/* --color 1, --no-color 0, -1: colours unless NO_COLOR is set and not
 * empty (no-color.org: a command line or a settings file beats it) */
static int tty_color_mode = -1;

static void tty__colors(void);

void tty__set_color(int mode)
{
	tty_color_mode = mode;
	/* live (the setup screen): the styles again; the next draw uses
	 * them */
	if (tty_on) {
		tty__colors();
		clearok(curscr, TRUE);
	}
}

static void tty__colors(void)
{
	const char *no_color = getenv("NO_COLOR");
	bool color = has_colors() &&
		     (tty_color_mode >= 0 ? tty_color_mode :
					    !(no_color && *no_color));

	style_attr[ST_NORMAL] = A_NORMAL;
	style_attr[ST_HOT] = A_BOLD;
	style_attr[ST_MEDIUM] = A_NORMAL;
	style_attr[ST_SELECTED] = A_REVERSE;
	style_attr[ST_TITLE] = A_REVERSE;
	style_attr[ST_BOLD] = A_BOLD;
	style_attr[ST_WARN] = A_BOLD | A_UNDERLINE;
	style_attr[ST_ERROR] = A_BOLD;
	style_attr[ST_KEY] = A_BOLD;
	/* flame graph frames: separated by a blank column; the search's
	 * matches stand out without colours too */
	style_attr[ST_FL_USER] = A_NORMAL;
	style_attr[ST_FL_KERNEL] = A_DIM;
	style_attr[ST_FL_JIT] = A_NORMAL;
	style_attr[ST_FL_INLINED] = A_NORMAL;
	style_attr[ST_FL_MATCH] = A_BOLD | A_UNDERLINE;
	if (!color || start_color() == ERR)
		return;
	use_default_colors();
	/* perf's colours: red hot, green medium */
	init_pair(1, COLOR_RED, -1);
	init_pair(2, COLOR_GREEN, -1);
	init_pair(3, COLOR_BLACK, COLOR_CYAN);
	init_pair(4, COLOR_YELLOW, -1);
	init_pair(5, COLOR_WHITE, COLOR_RED);
	init_pair(6, COLOR_CYAN, -1);
	style_attr[ST_HOT] = COLOR_PAIR(1) | A_BOLD;
	style_attr[ST_MEDIUM] = COLOR_PAIR(2);
	style_attr[ST_SELECTED] = COLOR_PAIR(3);
	style_attr[ST_WARN] = COLOR_PAIR(4) | A_BOLD;
	style_attr[ST_ERROR] = COLOR_PAIR(5) | A_BOLD;
	style_attr[ST_KEY] = COLOR_PAIR(6) | A_BOLD;
	init_pair(7, COLOR_BLACK, COLOR_YELLOW);
	init_pair(8, COLOR_BLACK, COLOR_RED);
	init_pair(9, COLOR_BLACK, COLOR_GREEN);
	init_pair(10, COLOR_BLACK, COLOR_MAGENTA);
	init_pair(11, COLOR_WHITE, COLOR_BLUE);
	style_attr[ST_FL_USER] = COLOR_PAIR(7);
	style_attr[ST_FL_KERNEL] = COLOR_PAIR(8);
	style_attr[ST_FL_JIT] = COLOR_PAIR(9);
	style_attr[ST_FL_INLINED] = COLOR_PAIR(10);
	style_attr[ST_FL_MATCH] = COLOR_PAIR(11) | A_BOLD;
}

static int check_term(const char *term, struct strbuf *err)
{
	if (!term || !*term || strcmp(term, "dumb") == 0) {
		strbuf__addf(err, "TERM is %s%s%s: the live view needs a "
				  "terminal that can move the cursor; use -b "
				  "for batch mode",
			     term && *term ? "'" : "unset",
			     term && *term ? term : "",
			     term && *term ? "'" : "");
		return -EINVAL;
	}
	return 0;
}

int tty__probe(struct strbuf *err)
{
	const char *term = getenv("TERM");
	TERMINAL *saved = cur_term, *mine;
	int errret = 0, rc;
	char *cup;

	if (tty_on)
		return 0;
	rc = check_term(term, err);
	if (rc)
		return rc;
	if (setupterm(term, fileno(stdout), &errret) != OK) {
		strbuf__addf(err, "cannot use the terminal type '%s'%s; use -b "
				  "for batch mode", term,
			     errret == 0 ? " (no terminfo entry, or a "
					   "hard-copy terminal)" : "");
		return -EINVAL;
	}
	cup = tigetstr("cup");
	rc = !cup || cup == (char *)-1 ? -EINVAL : 0;
	if (rc)
		strbuf__addf(err, "the terminal type '%s' cannot move the "
				  "cursor; use -b for batch mode", term);
	mine = set_curterm(saved);
	del_curterm(mine);
	return rc;
}

int tty__open(struct strbuf *err)
{
	static bool atexit_done;
	const char *term = getenv("TERM");
	char *cup;

	if (tty_on)
		return 0;
	if (check_term(term, err))
		return -EINVAL;
	tty_out = fileno(stdout);
	tty_in = fileno(stdin);
	tty_have_saved = tcgetattr(tty_in, &tty_saved) == 0;
	tty_ascii = strcmp(nl_langinfo(CODESET), "UTF-8") != 0;
	tty_screen = newterm(NULL, stdout, stdin);
	if (!tty_screen) {
		strbuf__addf(err, "cannot use the terminal type '%s'; use -b "
				  "for batch mode", term);
		return -EINVAL;
	}
	set_term(tty_screen);
	cup = tigetstr("cup");
	if (!cup || cup == (char *)-1) {
		endwin();
		delscreen(tty_screen);
		tty_screen = NULL;
		if (tty_have_saved)
			tcsetattr(tty_in, TCSANOW, &tty_saved);
		strbuf__addf(err, "the terminal type '%s' cannot move the "
				  "cursor; use -b for batch mode", term);
		return -EINVAL;
	}
	restore_len = 0;
	add_cap("rmcup");
	rmcup_len = restore_len;
	add_cap("sgr0");
	add_cap("cnorm");
	/* a crash leaves no mouse reporting behind (ncurses's endwin turns
	 * its own off; 1002 is ptop's) */
	if (tty_mouse && restore_len + 32 < sizeof(restore_seq)) {
		static const char off[] = MOUSE_DRAG_OFF "\033[?1006l\033[?1000l";

		memcpy(restore_seq + restore_len, off, sizeof(off) - 1);
		restore_len += sizeof(off) - 1;
	}
	tty__install_crash();
	tty_on = 1;
	if (!atexit_done) {
		atexit(tty__atexit);
		tty__sanitizer_hooks();
		atexit_done = true;
	}
	cbreak();
	noecho();
	nonl();
	intrflush(stdscr, FALSE);
	keypad(stdscr, TRUE);
	set_escdelay(25);
	curs_set(0);
	tty__colors();
	tty_mouse_active = false;
	memset(&tty_mstate, 0, sizeof(tty_mstate));
	if (tty_mouse)
		tty__mouse_apply(true);
	return 0;
}

void tty__close(void)
{
	if (!tty_on)
		return;
	tty_on = 0;
	/* without an alternate screen (vt100) the table stays: the shell
	 * prompt at least gets a clean last line */
	wattrset(stdscr, A_NORMAL);
	wmove(stdscr, LINES > 0 ? LINES - 1 : 0, 0);
	wclrtoeol(stdscr);
	tty__mouse_apply(false);
	wrefresh(stdscr);
	curs_set(1);
	endwin();
	delscreen(tty_screen);
	tty_screen = NULL;
	strbuf__fini(&tty_conv);
	if (tty_have_saved)
		tcsetattr(tty_in, TCSANOW, &tty_saved);
	tty__remove_crash();
}

bool tty__active(void)
{
	return tty_on;
}

void tty__size(size_t *rows, size_t *cols)
{
	int y = 0, x = 0;

	if (tty_on)
		getmaxyx(stdscr, y, x);
	*rows = y > 0 ? (size_t)y : 0;
	*cols = x > 0 ? (size_t)x : 0;
}

static void draw_line(const struct screen *s, size_t y)
{
	const struct screen_line *l = &s->lines[y];
	const char *text = l->text.buf ? l->text.buf : "";
	size_t start = 0, len = l->text.len;
	enum style cur;

	wmove(stdscr, (int)y, 0);
	/* runs of one style; spans start and end on character bounds */
	while (start < len) {
		size_t end = start + 1;

		cur = screen__style_at(s, y, start);
		while (end < len && screen__style_at(s, y, end) == cur)
			end++;
		wattrset(stdscr, (int)style_attr[cur]);
		if (tty_ascii) {
			tty_conv.len = 0;
			to_ascii(&tty_conv, text + start, end - start);
			if (tty_conv.len)
				waddnstr(stdscr, tty_conv.buf,
					 (int)tty_conv.len);
		} else {
			waddnstr(stdscr, text + start, (int)(end - start));
		}
		start = end;
	}
	wattrset(stdscr, (int)style_attr[l->fill]);
	if (l->fill != ST_NORMAL) {
		/* the rest of the line in the line's style (a selection bar) */
		for (size_t x = l->width; x < s->cols; x++)
			waddch(stdscr, ' ');
	} else if (l->width < s->cols) {
		wclrtoeol(stdscr);
	}
	wattrset(stdscr, A_NORMAL);
}

void tty__draw(const struct screen *s, bool repaint)
{
	size_t rows, cols;

	if (!tty_on)
		return;
	tty__size(&rows, &cols);
	if (repaint)
		clearok(curscr, TRUE);
	for (size_t y = 0; y < s->rows && y < rows; y++)
		draw_line(s, y);
	for (size_t y = s->rows; y < rows; y++) {
		wmove(stdscr, (int)y, 0);
		wclrtoeol(stdscr);
	}
	if (s->cursor_y >= 0 && (size_t)s->cursor_y < rows) {
		curs_set(1);
		wmove(stdscr, (int)s->cursor_y, (int)s->cursor_x);
	} else {
		curs_set(0);
	}
	wnoutrefresh(stdscr);
	doupdate();
	if (tty_drag_pending) {
		putp(MOUSE_DRAG_ON);
		fflush(stdout);
		tty_drag_pending = false;
	}
}

static int map_key(int k)
{
	static const struct {
		int curses, key;
	} map[] = {
		{ KEY_UP, K_UP }, { KEY_DOWN, K_DOWN }, { KEY_LEFT, K_LEFT },
		{ KEY_RIGHT, K_RIGHT }, { KEY_PPAGE, K_PGUP },
		{ KEY_NPAGE, K_PGDN }, { KEY_HOME, K_HOME },
		{ KEY_END, K_END }, { KEY_FIND, K_HOME },
		{ KEY_SELECT, K_END }, { KEY_A1, K_HOME }, { KEY_C1, K_END },
		{ KEY_A3, K_PGUP }, { KEY_C3, K_PGDN }, { KEY_BTAB, K_BTAB },
		{ KEY_ENTER, K_ENTER }, { KEY_BACKSPACE, K_BACKSPACE },
		{ KEY_DC, K_DELETE }, { KEY_RESIZE, K_RESIZE },
	};

	for (size_t i = 0; i < ARRAY_SIZE(map); i++)
		if (map[i].curses == k)
			return map[i].key;
	if (k >= KEY_F(1) && k <= KEY_F(60))
		return K_F(k - KEY_F0);
	return K_F(63);	/* a key nothing is bound to */
}

/* A hung-up terminal reads as end of file (or EIO) at once, so curses
 * returns ERR without waiting: without this the loop would spin. */
static bool tty__hung_up(void)
{
	struct pollfd p = { .fd = tty_in, .events = POLLIN };

	if (poll(&p, 1, 0) <= 0)
		return false;
	return (p.revents & (POLLHUP | POLLERR | POLLNVAL)) != 0;
}

bool tty__key_waiting(void)
{
	struct pollfd p = { .fd = tty_in, .events = POLLIN };

	if (!tty_on)
		return false;
	if (tty_mq_nr)
		return true;
	return poll(&p, 1, 0) > 0 && p.revents != 0;
}

int tty__getkey(int timeout_ms)
{
	wint_t ch;
	int r;

	if (!tty_on)
		return K_NONE;
	/* the rest of a report that made several events */
	if (tty_mq_nr)
		return tty__mouse_next();
	wtimeout(stdscr, timeout_ms);
	r = wget_wch(stdscr, &ch);
	if (r == ERR)
		return tty__hung_up() ? K_HANGUP : K_NONE;
	if (r == KEY_CODE_YES && ch == KEY_MOUSE)
		return tty__mouse_key();
	if (r == KEY_CODE_YES)
		return map_key((int)ch);
	if (ch == '\r' || ch == '\n')
		return K_ENTER;
	if (ch == 127 || ch == 8)
		return K_BACKSPACE;
	if (ch >= K_BASE)
		return K_F(63);
	return (int)ch;
}
