#!/usr/bin/env python3
"""A stand-in for Pyroscope's HTTP ingest handler, on 127.0.0.1, for
push.sh.  usage: ingest_server.py MODE DIR

Writes the port it listens on to DIR/port, then serves until killed.
MODE:
  ok     check each request as Pyroscope's /ingest handler does (POST,
         path /ingest, query name=APP{k=v,...} with valid label names,
         from <= until as Unix seconds, format=pprof, a multipart/form-data
         body whose "profile" part holds a gzip'd profile), answer 200 and
         save the part as DIR/N.pb.gz with the query as DIR/N.query; a
         request that fails a check gets 400 and DIR/N.bad says why
  flaky  answer 503 to the first two requests, then as ok
  hang   accept, read the request, never answer
  close  accept, read the request, close without answering
"""
import http.server
import os
import re
import sys
import threading
import time
import urllib.parse

MODE, DIR = sys.argv[1], sys.argv[2]
count = 0
lock = threading.Lock()
LABEL = re.compile(r'^[A-Za-z_][A-Za-z0-9_.]*$')


def check_name(name):
    m = re.fullmatch(r'([^{}]+)\{(.*)\}', name)
    if not m:
        return 'name %r is not APP{labels}' % name
    if m.group(2):
        for kv in m.group(2).split(','):
            k, sep, v = kv.partition('=')
            if not sep or not LABEL.match(k) or not v:
                return 'bad label %r' % kv
    return None


def multipart_profile(ctype, body):
    m = re.match(r'multipart/form-data;\s*boundary=(\S+)$', ctype or '')
    if not m:
        return None, 'Content-Type %r is not multipart/form-data' % ctype
    sep = b'--' + m.group(1).encode()
    if not body.startswith(sep) or not body.rstrip().endswith(sep + b'--'):
        return None, 'the body is not framed by the boundary'
    for part in body.split(sep)[1:-1]:
        head, _, data = part.partition(b'\r\n\r\n')
        if b'name="profile"' in head:
            if not data.endswith(b'\r\n'):
                return None, 'a part does not end with CRLF'
            return data[:-2], None
    return None, 'no "profile" part'


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = 'HTTP/1.1'

    def log_message(self, fmt, *args):
        pass

    def answer(self, code):
        self.send_response(code)
        self.send_header('Content-Length', '0')
        self.end_headers()

    def do_POST(self):
        global count
        length = int(self.headers.get('Content-Length', '0'))
        body = self.rfile.read(length)
        with lock:
            count += 1
            n = count
        if MODE == 'hang':
            time.sleep(3600)
            return
        if MODE == 'close':
            self.close_connection = True
            self.connection.shutdown(2)
            return
        if MODE == 'flaky' and n <= 2:
            self.answer(503)
            return
        url = urllib.parse.urlsplit(self.path)
        q = urllib.parse.parse_qs(url.query)
        why = None
        if url.path != '/ingest':
            why = 'path %r' % url.path
        elif any(len(q.get(k, [])) != 1 for k in ('name', 'from', 'until')):
            why = 'name, from and until are required once'
        elif q.get('format') != ['pprof']:
            why = 'format %r' % q.get('format')
        else:
            why = check_name(q['name'][0])
        if not why:
            try:
                f, u = int(q['from'][0]), int(q['until'][0])
                if not 0 < f <= u:
                    why = 'from %d until %d' % (f, u)
            except ValueError:
                why = 'from/until are not Unix seconds'
        data = None
        if not why:
            data, why = multipart_profile(self.headers.get('Content-Type'),
                                          body)
        if not why and not data.startswith(b'\x1f\x8b'):
            why = 'the profile is not gzip'
        if why:
            with open(os.path.join(DIR, '%d.bad' % n), 'w') as f:
                f.write(why + '\n')
            self.answer(400)
            return
        with open(os.path.join(DIR, '%d.pb.gz' % n), 'wb') as f:
            f.write(data)
        with open(os.path.join(DIR, '%d.query' % n), 'w') as f:
            f.write(url.query + '\n')
        self.answer(200)


srv = http.server.ThreadingHTTPServer(('127.0.0.1', 0), Handler)
srv.daemon_threads = True
with open(os.path.join(DIR, 'port.tmp'), 'w') as f:
    f.write('%d\n' % srv.server_address[1])
os.rename(os.path.join(DIR, 'port.tmp'), os.path.join(DIR, 'port'))
srv.serve_forever()
