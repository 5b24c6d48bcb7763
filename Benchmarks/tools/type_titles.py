"""Types product titles letter by letter into a running `catalog serve`, as the page does, and
times each request: GET /api/products?q=<what is typed so far> (the first page and its count).

    python3 type_titles.py PORT TITLES.txt [--slowest N]

TITLES.txt holds one title per line. Prints the percentiles, then the slowest keystrokes one per
line prefixed with `slow:`, for Benchmarks/keystrokes.sh to pick up.
"""
import http.client
import re
import sys
import time
import urllib.parse


def keystrokes(title):
    """Every text typed on the way to `title` whose words changed (a space adds nothing)."""
    typed, last, texts = "", None, []
    for character in title:
        typed += character
        words = re.findall(r"\w+", typed)
        if words and words != last:
            texts.append(typed)
        last = words
    return texts


def main():
    port, path = int(sys.argv[1]), sys.argv[2]
    slowest = int(sys.argv[sys.argv.index("--slowest") + 1]) if "--slowest" in sys.argv else 5
    titles = [line.rstrip("\n") for line in open(path, encoding="utf-8") if line.strip()]
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    timings = []
    for title in titles:
        for text in keystrokes(title):
            url = "/api/products?q=" + urllib.parse.quote(text)
            start = time.perf_counter()
            connection.request("GET", url)
            response = connection.getresponse()
            response.read()
            timings.append(((time.perf_counter() - start) * 1000, text, response.status))
    timings.sort()
    count = len(timings)
    def at(share):
        return timings[min(count - 1, int(count * share))][0]
    print(f"{len(titles)} titles, {count} keystrokes: p50 {at(0.5):.2f} ms, p90 {at(0.9):.2f} ms, "
          f"p99 {at(0.99):.2f} ms, worst {timings[-1][0]:.2f} ms; statuses {sorted({t[2] for t in timings})}")
    for ms, text, _ in timings[-slowest:][::-1]:
        print(f"slow: {ms:.2f}\t{text}")


if __name__ == "__main__":
    main()
