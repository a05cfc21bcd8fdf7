#!/usr/bin/env python3
"""A stand-in for a public data origin, for tests/sync_test.cpp: loopback only, on a port the
kernel picks (printed as "PORT <n>"), misbehaving on purpose as a script file says.

The script (JSON, re-read on every request) maps a path to a list of answers, used in turn;
the last one repeats:
  {"file": PATH, "etag": "...", "last_modified": "..."}  the file (304 when If-None-Match matches)
  {"status": 503, "retry_after": 1}                     an error status
  {"status": 406, "json": {...}}                        an error status with a JSON body
  {"html": true}                                        200 text/html, a maintenance page
  {"truncate": true, "file": PATH}                      Content-Length of the file, half the body
  {"sleep": SECONDS, "file": PATH}                      the file, after a pause
A script key ending in "*" answers every path it starts (a URL whose date is today's); a path the
script does not name is 404. Every request is appended to the log file as
"<path> <If-None-Match or ->".
"""
import http.server
import json
import socketserver
import sys
import threading
import time

script_file, log_file = sys.argv[1], sys.argv[2]
served = {}  # path -> answers given so far
lock = threading.Lock()


class Origin(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_GET(self):
        with lock:
            with open(log_file, "a") as log:
                log.write(f"{self.path} {self.headers.get('If-None-Match', '-')}\n")
            with open(script_file) as f:
                script = json.load(f)
            answers = script.get(self.path) or next(
                (a for k, a in script.items() if k.endswith("*") and self.path.startswith(k[:-1])), None)
            n = served.get(self.path, 0)
            served[self.path] = n + 1
        if not answers:
            return self.plain(404, b"not found")
        answer = answers[min(n, len(answers) - 1)]
        if "sleep" in answer:
            time.sleep(answer["sleep"])
        if "status" in answer and "json" in answer:
            return self.plain(answer["status"], json.dumps(answer["json"]).encode(), {}, "application/json")
        if "status" in answer:
            extra = {"Retry-After": str(answer["retry_after"])} if "retry_after" in answer else {}
            return self.plain(answer["status"], b"unavailable", extra)
        if answer.get("html"):
            return self.plain(200, b"<!DOCTYPE html><html><body>Em manutencao</body></html>", {}, "text/html")
        body = open(answer["file"], "rb").read()
        etag = answer.get("etag")
        if etag and self.headers.get("If-None-Match") == etag:
            self.send_response(304)
            self.send_header("ETag", etag)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        self.send_response(200)
        self.send_header("Content-Type", "application/octet-stream")
        self.send_header("Content-Length", str(len(body)))
        if etag:
            self.send_header("ETag", etag)
        if "last_modified" in answer:
            self.send_header("Last-Modified", answer["last_modified"])
        self.end_headers()
        if answer.get("truncate"):
            self.wfile.write(body[: len(body) // 2])
            self.wfile.flush()
            self.close_connection = True
            return
        self.wfile.write(body)

    def plain(self, status, body, headers=None, content_type="text/plain"):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True


server = Server(("127.0.0.1", 0), Origin)
print(f"PORT {server.server_address[1]}", flush=True)
server.serve_forever()
