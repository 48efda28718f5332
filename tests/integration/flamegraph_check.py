#!/usr/bin/env python3
"""Checks of ptop's --flamegraph SVG (flamegraph.sh).

  flamegraph_check.py stacks SVG FOLDED
      every stack of the folded file is a path of frames in the SVG whose
      own samples (its width less its callees') are the folded count, and
      the SVG has no other samples
  flamegraph_check.py share SVG STACK
      the percent of the samples under the frame path STACK (a;b;c)
  flamegraph_check.py pixels PNG R0 R1 G0 G1 B0 B1
      how many pixels of the screenshot have a colour in the ranges
"""
import struct
import sys
import xml.etree.ElementTree as ET
import zlib

NS = '{http://www.w3.org/2000/svg}'


def frames(path):
    """(depth, x, w, name) of every frame, and a parent index."""
    root = ET.parse(path).getroot()
    out = []
    for g in root.iter(NS + 'g'):
        if g.get('class') != 'f':
            continue
        out.append((int(g.get('data-d')), int(g.get('data-x')),
                    int(g.get('data-w')), g.get('data-n')))
    out.sort()
    by_depth = {}
    for i, (d, x, w, n) in enumerate(out):
        by_depth.setdefault(d, []).append(i)
    parent = [None] * len(out)
    for i, (d, x, w, n) in enumerate(out):
        if d == 0:
            continue
        for j in by_depth.get(d - 1, []):
            pd, px, pw, pn = out[j]
            if px <= x and x + w <= px + pw:
                parent[i] = j
                break
        else:
            sys.exit('frame %s at depth %d x %d has no caller' % (n, d, x))
    return out, parent


def paths(path):
    """{stack: (total, self)} of the SVG (stacks without "all")."""
    out, parent = frames(path)
    kids = [0] * len(out)
    for i, p in enumerate(parent):
        if p is not None:
            kids[p] += out[i][2]
    res = {}
    for i, (d, x, w, n) in enumerate(out):
        if d == 0:
            continue
        names = []
        j = i
        while parent[j] is not None:
            names.append(out[j][3])
            j = parent[j]
        key = ';'.join(reversed(names))
        t, s = res.get(key, (0, 0))
        res[key] = (t + w, s + w - kids[i])
    total = sum(w for d, x, w, n in out if d == 0)
    return res, total


def cmd_stacks(svg, folded):
    res, total = paths(svg)
    want = {}
    for line in open(folded):
        stack, count = line.rstrip('\n').rsplit(' ', 1)
        want[stack] = want.get(stack, 0) + int(count)
    bad = []
    for stack, count in want.items():
        got = res.get(stack, (0, 0))[1]
        if got != count:
            bad.append('%s: folded %d, svg %d' % (stack, count, got))
    extra = sum(s for k, (t, s) in res.items() if k not in want)
    if extra:
        bad.append('%d samples in SVG stacks that --folded does not have'
                   % extra)
    if sum(want.values()) != total:
        bad.append('folded %d samples, svg %d' % (sum(want.values()), total))
    if bad:
        sys.exit('\n'.join(bad[:10]))
    print('%d stacks, %d samples: the same' % (len(want), total))


def cmd_share(svg, stack):
    res, total = paths(svg)
    print('%.2f' % (100.0 * res.get(stack, (0, 0))[0] / total if total else 0))


def png_pixels(path):
    data = open(path, 'rb').read()
    if data[:8] != b'\x89PNG\r\n\x1a\n':
        sys.exit('%s: not a PNG' % path)
    pos, idat, w = 8, b'', 0
    while pos < len(data):
        n, kind = struct.unpack('>I4s', data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b'IHDR':
            w, h, depth, ctype, _, _, inter = struct.unpack('>IIBBBBB', body)
            if depth != 8 or ctype not in (2, 6) or inter:
                sys.exit('PNG kind %d/%d/%d not read here' % (depth, ctype, inter))
            bpp = 3 if ctype == 2 else 4
        elif kind == b'IDAT':
            idat += body
        pos += 12 + n
    raw = zlib.decompress(idat)
    stride = w * bpp
    prev = bytearray(stride)
    rows = []
    for y in range(h):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pr = a if pa <= pb and pa <= pc else b if pb <= pc else c
                line[i] = (line[i] + pr) & 255
        rows.append(line)
        prev = line
    return rows, bpp


def cmd_pixels(png, r0, r1, g0, g1, b0, b1):
    rows, bpp = png_pixels(png)
    n = 0
    for line in rows:
        for i in range(0, len(line), bpp):
            r, g, b = line[i], line[i + 1], line[i + 2]
            if r0 <= r <= r1 and g0 <= g <= g1 and b0 <= b <= b1:
                n += 1
    print(n)


if __name__ == '__main__':
    a = sys.argv[1:]
    if a[:1] == ['stacks'] and len(a) == 3:
        cmd_stacks(a[1], a[2])
    elif a[:1] == ['share'] and len(a) == 3:
        cmd_share(a[1], a[2])
    elif a[:1] == ['pixels'] and len(a) == 8:
        cmd_pixels(a[1], *[int(v) for v in a[2:]])
    else:
        sys.exit(__doc__)
