#!/usr/bin/env python3
"""The include graph of ptop's modules, and its circles.

  scripts/include_cycles.py [ROOT]

A module is a .c and its .h (doc/design.md, "Layout"): x.c, x.h and
x_internal.h are one node, and a .c without its own header (session_events.c,
actions_zoom.c) belongs to the module whose name its own is an extension
of (session, actions).  An edge is an #include "..." of another module's
header.  Prints the strongly connected components of more than one module
(the circles, however long) and every pair of modules that include each
other; exits 1 when there is a circle, 0 when there is none.
"""
import os
import re
import sys

root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
    os.path.dirname(os.path.abspath(__file__)), '..')
INCLUDE = re.compile(r'\s*#\s*include\s+"([^"]+)"')


def module(path):
    m = re.sub(r'\.(c|h)$', '', path)
    m = re.sub(r'_internal$', '', m)
    if path.endswith('.c'):
        r = m
        while (not os.path.exists(os.path.join(root, r + '.h')) and
               '_' in os.path.basename(r)):
            r = r.rsplit('_', 1)[0]
        if os.path.exists(os.path.join(root, r + '.h')):
            m = r
    return m


edges = {}
for top in ('src', 'symbols', 'ui'):
    for d, _, files in os.walk(os.path.join(root, top)):
        for f in sorted(files):
            if not f.endswith(('.c', '.h')):
                continue
            path = os.path.relpath(os.path.join(d, f), root)
            a = module(path)
            edges.setdefault(a, set())
            with open(os.path.join(d, f), errors='replace') as fh:
                for line in fh:
                    m = INCLUDE.match(line)
                    if m and module(m.group(1)) != a:
                        edges[a].add(module(m.group(1)))
                        edges.setdefault(module(m.group(1)), set())

# Tarjan's strongly connected components, iteratively
index, low, on, stack, comps, n = {}, {}, set(), [], [], [0]
for start in sorted(edges):
    if start in index:
        continue
    work = [(start, iter(sorted(edges[start])))]
    index[start] = low[start] = n[0]
    n[0] += 1
    stack.append(start)
    on.add(start)
    while work:
        v, it = work[-1]
        w = next(it, None)
        if w is not None:
            if w not in index:
                index[w] = low[w] = n[0]
                n[0] += 1
                stack.append(w)
                on.add(w)
                work.append((w, iter(sorted(edges[w]))))
            elif w in on:
                low[v] = min(low[v], index[w])
            continue
        work.pop()
        if work:
            low[work[-1][0]] = min(low[work[-1][0]], low[v])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                comps.append(sorted(comp))

pairs = sorted({tuple(sorted((a, b))) for a in edges for b in edges[a]
                if a in edges.get(b, ())})
print('%d modules, %d include edges' %
      (len(edges), sum(len(v) for v in edges.values())))
print('%d circles (strongly connected components)' % len(comps))
for c in comps:
    print('  %d: %s' % (len(c), ' '.join(c)))
print('%d pairs of modules that include each other' % len(pairs))
for a, b in pairs:
    print('  %s <-> %s' % (a, b))
sys.exit(1 if comps else 0)
