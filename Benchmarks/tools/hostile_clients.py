"""Hostile clients against a running `catalog serve`, for Benchmarks/slow-clients.sh.

Each case opens its sockets on loopback, times ordinary searches meanwhile, and prints one
Markdown table row. Only the standard library; the server's address comes from the command line.
"""
import json
import socket
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request


def search_times(port, count=5, query="shirt"):
    """Milliseconds of `count` searches, one after another; 'timeout' for one over 120 s."""
    times = []
    for _ in range(count):
        start = time.time()
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/api/products?q={query}", timeout=120).read()
            times.append(f"{(time.time() - start) * 1000:.1f}")
        except Exception as error:  # a refused or timed-out search is the result itself
            times.append(f"failed after {time.time() - start:.1f} s ({type(error).__name__})")
        time.sleep(0.2)
    return times


def open_sockets(port, count):
    sockets = []
    for _ in range(count):
        try:
            s = socket.socket()
            s.settimeout(2)
            s.connect(("127.0.0.1", port))
            sockets.append(s)
        except OSError:
            pass
    return sockets


def slow_headers(port, count, interval):
    """`count` sockets each sending one more byte of a request head every `interval` seconds."""
    sockets = open_sockets(port, count)
    stop = threading.Event()
    head = b"GET /api/products HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + b"a" * 100000

    def drip():
        offset = 0
        while not stop.is_set():
            for s in list(sockets):
                try:
                    s.send(head[offset:offset + 1])
                except OSError:
                    # Closed by the server: come back, as an attacker would.
                    sockets.remove(s)
                    sockets.extend(open_sockets(port, 1))
            offset += 1
            stop.wait(interval)

    thread = threading.Thread(target=drip, daemon=True)
    thread.start()
    time.sleep(1)
    result = search_times(port)
    stop.set()
    thread.join()
    for s in sockets:
        s.close()
    return f"| {count} sockets sending a header byte every {interval} s | {' · '.join(result)} |"


def idle(port, count):
    sockets = open_sockets(port, count)
    time.sleep(1)
    result = search_times(port)
    for s in sockets:
        s.close()
    return f"| {count} idle sockets (connected, silent) | {' · '.join(result)} |"


def rss(pid):
    fields = {}
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            key, _, value = line.partition(":")
            fields[key] = int(value.split()[0]) // 1024 if value.strip().endswith("kB") else value
    return fields["VmRSS"], fields["VmHWM"]


def big_bodies(port, pid, count):
    """`count` concurrent adds, each a JSON object of 100,000 extra keys (about 1.6 MB)."""
    product = {"productId": "BIG", "title": "t"}
    for index in range(100000):
        product[f"k{index:06d}"] = "v"
    body = json.dumps(product).encode()
    before, _ = rss(pid)
    statuses = []

    def post():
        request = urllib.request.Request(
            f"http://127.0.0.1:{port}/api/products", data=body, method="POST",
            headers={"Content-Type": "application/json", "Origin": f"http://127.0.0.1:{port}"})
        try:
            urllib.request.urlopen(request, timeout=600)
            statuses.append(200)
        except urllib.error.HTTPError as error:
            statuses.append(error.code)
        except Exception as error:
            statuses.append(type(error).__name__)

    threads = [threading.Thread(target=post) for _ in range(count)]
    start = time.time()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    after, peak = rss(pid)
    answers = ", ".join(f"{status} ×{statuses.count(status)}" for status in sorted(set(statuses), key=str))
    return (f"| {count} concurrent adds of {len(body) / 1e6:.1f} MB (100,000 keys) | RSS {before} MB before, "
            f"peak {peak} MB, {after} MB after; answers {answers}; {time.time() - start:.1f} s |")


def stalled_uploads(port, pid, kind, count):
    """`count` uploads that send all but the last byte of their body and then wait: pictures
    (5 MB, `PUT /api/products/{id}/image`) or collection files (60 MB, `POST /api/collections/import`).
    The server's memory once every one has sent what it will."""
    first = json.load(urllib.request.urlopen(f"http://127.0.0.1:{port}/api/products?limit=1"))["products"][0]["productId"]
    if kind == "pictures":
        size, path, method, content_type = 5_000_000, f"/api/products/{urllib.parse.quote(first, safe='')}/image", "PUT", "image/png"
        chunk = b"\x89PNG\r\n\x1a\n" + b"\x07" * (1 << 16)
    else:
        size, path, method, content_type = 60_000_000, "/api/collections/import", "POST", "text/csv"
        chunk = b"collection,productId\n" + f"Stalled,{first}\n".encode() * 4000
    before, _ = rss(pid)
    sockets = []
    start = time.time()
    for _ in range(count):
        s = socket.create_connection(("127.0.0.1", port), timeout=30)
        s.sendall(f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nOrigin: http://127.0.0.1:{port}\r\n"
                  f"Content-Type: {content_type}\r\nContent-Length: {size + 1}\r\n\r\n".encode())
        sent = 0
        while sent < size:
            part = chunk[: size - sent]
            s.sendall(part)
            sent += len(part)
        sockets.append(s)
    after, peak = rss(pid)
    searches = search_times(port, count=3)
    for s in sockets:
        s.close()
    return (f"| {count} stalled {kind} uploads of {size / 1e6:.0f} MB (all but the last byte sent) | RSS {before} MB before, "
            f"{after} MB once sent (peak {peak} MB), {time.time() - start:.1f} s; searches meanwhile {' · '.join(searches)} ms |")


if __name__ == "__main__":
    case, port = sys.argv[1], int(sys.argv[2])
    if case == "baseline":
        print(f"| nothing else | {' · '.join(search_times(port))} |")
    elif case == "slow":
        print(slow_headers(port, int(sys.argv[3]), float(sys.argv[4])))
    elif case == "idle":
        print(idle(port, int(sys.argv[3])))
    elif case == "bodies":
        print(big_bodies(port, int(sys.argv[3]), int(sys.argv[4])))
    elif case == "stalled":
        print(stalled_uploads(port, int(sys.argv[3]), sys.argv[4], int(sys.argv[5])))
