/* annotate: one function's annotated code (instructions, source lines,
 * samples per instruction from a snapshot) as lines of text or JSON;
 * shared by batch (--annotate) and the live view. */
#ifndef PTOP_ANNOTATE_H
#define PTOP_ANNOTATE_H

#include "symbols/disasm.h"
#include "ui/report/header.h"
#include "src/core/session.h"
#include "symbols/symbolizer.h"

/*
 * Usage:
 *	an = annotator__new(syms, DISASM_ATT);
 *	annotator__open(an, dso, sym_start, &a, &why);	once per function
 *	at each refresh:
 *		annotation__count(a, snap);	samples per instruction (pure)
 *		annotation__layout(a, ANN_BOTH, &lines);
 *		annotation__format_line(a, &lines.l[i], &fmt, &sb);
 *	annotation__put(a);
 *	annotator__free(an);
 *
 * Opening reads the function's bytes (symbolizer__read_code: the file,
 * /proc/PID/mem, /proc/kcore), disassembles them in process (capstone),
 * looks up the source line of every instruction (DWARF) and reads the
 * source text from disk; all of it is cached, so going back to a
 * function costs nothing.  Counting, layout and formatting are pure.
 * Addresses: `key` is the histogram's key space (file offsets for
 * files), `vaddr` the ELF virtual address shown (symbolizer__to_vaddr).
 */

struct ann_src {
	const char *file;	/* as DWARF names it (interned) */
	const char *dir;	/* its compilation directory, or NULL */
	int line;
	const char *func;	/* innermost function: an inlined one's name */
	bool inlined;		/* func was inlined here */
	const char *text;	/* the source line, NULL: not found */
	u64 samples, period;	/* summed over its instructions */
};

struct ann_insn {
	u64 key;		/* key-space address */
	s32 src;		/* index in srcs, -1: no line information */
	s32 target;		/* index of an in-function branch target, -1 */
	u32 label;		/* N of ".LN" when a branch lands here, 0 */
	const char *target_name;	/* a direct target outside, or the
					 * address a %rip-relative operand
					 * refers to: its symbol (NULL:
					 * unknown) */
	u64 target_off;		/* offset into that symbol */
	u64 samples, period;
};

#define ANN_MAX_NOTES 8

struct annotation {
	unsigned int refs;
	const struct dso *dso;
	const char *name;	/* demangled (raw text: sanitize on output) */
	const char *dso_name;
	const char *file;	/* the binary read, NULL: unknown */
	u64 start, size;	/* key space (what was disassembled) */
	u64 sym_size;		/* the symbol's size (size may be less) */
	u64 vaddr;		/* start as a virtual address */
	u32 sym_flags;		/* SYM_F_* */
	enum disasm_syntax syntax;
	struct disasm *dis;
	struct ann_insn *insns;	/* one per disassembled instruction */
	size_t nr;
	struct ann_src *srcs;	/* distinct source lines, in the order of
				 * their first instruction */
	size_t nr_srcs;
	u32 *src_sorted;	/* srcs by file (first seen) then line */
	u32 nr_labels;
	bool has_lines;		/* any DWARF line for this function */
	char notes[ANN_MAX_NOTES][192];	/* "source not found: ...", ... */
	size_t nr_notes;
	/* from the last annotation__count */
	u64 samples, period;		/* of this function */
	/* of this function too, at no instruction: entries of exited
	 * processes whose addresses the live view folded (hist_key.whole);
	 * percentages are of samples/period above, the title's share of
	 * both; folded_live: those of them not of an exited process (pid
	 * not -1: the memory budget folded them) */
	u64 folded_samples, folded_period, folded_live;
	u64 total_samples, total_period;	/* of the snapshot */
};

struct annotator;

struct annotator *annotator__new(struct symbolizer *syms,
				 enum disasm_syntax syntax);
void annotator__free(struct annotator *an);
enum disasm_syntax annotator__syntax(const struct annotator *an);

/*
 * The annotation of the function holding key address addr in dso (a new
 * reference).  0, or -errno with a sentence for the user in why (e.g.
 * "kernel annotation needs /proc/kcore (readable as root) or a vmlinux"):
 * -ENOENT no function covers addr / nothing to read; -ESRCH the process
 * that mapped a deleted file exited; -ESTALE the file changed; -EACCES;
 * -EOPNOTSUPP not x86-64; -ENOMEM.
 */
int annotator__open(struct annotator *an, const struct dso *dso, u64 addr,
		    struct annotation **out, struct strbuf *why);
struct annotation *annotation__get(struct annotation *a);
void annotation__put(struct annotation *a);	/* NULL: no-op */

/*
 * Finds a function by name among the snapshot's samples: the one with
 * the most period when several dsos have it.  "foo" matches "foo(int)"
 * too.  When no sample is in such a function, the symbol tables of the
 * dsos that have samples are searched (a function that has not run
 * yet).  0 with *dso and *addr (key space), or -ENOENT with up to five
 * close names (substrings, then small edit distances) in close, one per
 * line.
 */
int annotator__find(struct annotator *an, const struct snapshot *snap,
		    const char *name, const struct dso **dso, u64 *addr,
		    struct strbuf *close);

/* Edit distance of two strings (capped at 255), for close matches. */
unsigned int annotate__distance(const char *a, const char *b);

/* Samples and period per instruction and source line from snap: the
 * entries of this dso whose key falls in [start, start + size). */
void annotation__count(struct annotation *a, const struct snapshot *snap);

/* Which samples count: those of one process, thread, command, CPU,
 * cgroup or thread state (the row annotated was one of them, or the
 * table is zoomed into it). */
struct ann_scope {
	bool has_pid, has_tid, has_comm, has_cpu, has_cgroup, has_state;
	s32 pid, tid, cpu;
	const char *comm;	/* interned: compared as a pointer */
	const char *cgroup;	/* interned path, or NULL (unknown) */
	u8 state;		/* hist_key.state */
	/* Time events (off-CPU, wall): a sample counts at the function's
	 * innermost frame of its chain, where it ran or the call it waited
	 * in (its leaf is the scheduler's); otherwise only where it ran,
	 * as perf annotate counts. */
	bool chains;
};

void annotation__count_scope(struct annotation *a,
			     const struct snapshot *snap,
			     const struct ann_scope *scope);

/* Share of the function, in percent: of its period (samples when the
 * period is zero, as the table does). */
double annotation__percent(const struct annotation *a, u64 samples,
			   u64 period);
/* The instruction with the most period, or -1 when none has samples. */
long annotation__hottest(const struct annotation *a);
/* Instructions with samples, hottest first; returns the count (0 on
 * ENOMEM).  *idx is the caller's to free. */
size_t annotation__hot_order(const struct annotation *a, u32 **idx);
/* Index of the instruction holding key address key, or -1. */
long annotation__find_key(const struct annotation *a, u64 key);
/* The vaddr of instruction i. */
u64 annotation__insn_vaddr(const struct annotation *a, size_t i);

enum ann_mode {
	ANN_BOTH,	/* source lines above the instructions they made */
	ANN_ASM,	/* instructions only */
	ANN_SOURCE,	/* source lines only, samples summed per line */
	ANN__MODES,
};

enum ann_line_kind {
	AL_SRC,		/* idx: srcs */
	AL_INSN,	/* idx: insns */
};

struct ann_line {
	u32 kind;
	u32 idx;
};

struct ann_lines {
	struct ann_line *l;
	size_t nr, cap;
};

void ann_lines__fini(struct ann_lines *ls);
/* The lines of mode (source-only falls back to instructions when there
 * is no line information).  0 or -ENOMEM. */
int annotation__layout(const struct annotation *a, enum ann_mode mode,
		       struct ann_lines *ls);

enum ann_value {
	ANN_PERCENT,
	ANN_SAMPLES,
	ANN_PERIOD,
	ANN__VALUES,
};

struct ann_fmt {
	enum ann_value value;
	bool bytes;		/* the raw bytes column */
	bool blank_zero;	/* cold lines show no "0.00" (the view) */
	bool source_value;	/* source lines show their sum too */
};

/* Width of the value column (the view colours it). */
#define ANN_VALUE_WIDTH 8

/* One line of text (sanitized, no newline) appended to sb. */
void annotation__format_line(const struct annotation *a,
			     const struct ann_line *l, const struct ann_fmt *f,
			     struct strbuf *sb);
/* The title: name, dso, share of the event, samples (sanitized). */
void annotation__format_title(const struct annotation *a, const char *event,
			      struct strbuf *sb);

/* The whole annotation as text ('#' header lines, the column titles,
 * then every line of mode): batch output and the view's P. */
void annotation__text(const struct annotation *a, const char *event,
		      enum ann_mode mode, const struct ann_fmt *f,
		      struct strbuf *sb);
/* One JSON object on one line (batch --json). */
void annotation__json(const struct annotation *a,
		      const struct header_info *hi, struct strbuf *sb);

#endif
