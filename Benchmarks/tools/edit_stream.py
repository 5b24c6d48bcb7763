"""A team at work on a running `catalog serve`: one client types searches, one sends batches of
title changes, one pages through queries; first the searches alone (the server idle), then all
three at once. Times every request and says what answered with an error.

    python3 edit_stream.py PORT CATALOG.csv [--batches 30] [--batch-size 1000] [--seed 7] [--pager] [--json OUT]

The searches are the keystrokes of the first two words of titles sampled from the CSV (the
same texts, in the same order, idle and under edits); each batch is
`POST /api/products/batch {"action":"set","productIds":[1,000 productIds],"fields":{"title":…}}`
over products spread through the file; with --pager, a third client walks every page of a few
queries (`GET /api/products?q=…&after=…`) meanwhile and counts products it met twice. Prints one line per phase and
per batch, then a summary; with --json, writes every number to OUT.
"""
import csv
import http.client
import json
import random
import re
import sys
import threading
import time
import urllib.parse


def keystrokes(text):
    """Every text typed on the way to `text` whose words changed (a space adds nothing)."""
    typed, last, texts = "", None, []
    for character in text:
        typed += character
        words = re.findall(r"\w+", typed)
        if words and words != last:
            texts.append(typed)
        last = words
    return texts


def percentile(values, share):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * share))] if ordered else float("nan")


class Client:
    def __init__(self, port):
        self.port = port
        self.connection = None

    def request(self, method, path, body=None):
        """(milliseconds, status, parsed JSON or None)."""
        headers = {"Accept": "application/json"}
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
            headers["Origin"] = f"http://127.0.0.1:{self.port}"
        for attempt in range(2):
            if self.connection is None:
                self.connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=300)
            start = time.perf_counter()
            try:
                self.connection.request(method, path, body=data, headers=headers)
                response = self.connection.getresponse()
                payload = response.read()
            except (http.client.HTTPException, OSError):
                self.connection.close()
                self.connection = None
                if attempt == 1:
                    return (time.perf_counter() - start) * 1000, 0, None
                continue
            elapsed = (time.perf_counter() - start) * 1000
            try:
                parsed = json.loads(payload) if payload else None
            except ValueError:
                parsed = None
            return elapsed, response.status, parsed
        return 0, 0, None


def main():
    args = sys.argv[1:]
    port, path = int(args[0]), args[1]

    def option(name, default):
        return type(default)(args[args.index(name) + 1]) if name in args else default

    batches, batch_size, seed = option("--batches", 30), option("--batch-size", 1000), option("--seed", 7)
    out = option("--json", "")
    searches_wanted = option("--searches", 2000)
    random.seed(seed)

    ids, titles = [], []
    with open(path, newline="", encoding="utf-8") as source:
        reader = csv.reader(source)
        header = next(reader)
        id_column, title_column = header.index("productId"), header.index("title")
        for row in reader:
            ids.append(row[id_column])
            titles.append(row[title_column])
    # The searches: keystrokes of the first two words of sampled titles.
    texts = []
    while len(texts) < searches_wanted:
        words = re.findall(r"\w+", random.choice(titles))[:2]
        if len(words) == 2:
            texts += keystrokes(" ".join(words))
    texts = texts[:searches_wanted]
    # The batches: products spread through the file, none changed twice.
    chosen = random.sample(range(len(ids)), min(len(ids), batches * batch_size))
    batch_ids = [[ids[i] for i in chosen[b * batch_size:(b + 1) * batch_size]] for b in range(batches)]
    pages_of = ["shirt", "jacket black", "s", "wool"]

    def type_searches(client, record, stop=None):
        for text in texts:
            if stop is not None and stop.is_set():
                break
            ms, status, _ = client.request("GET", "/api/products?q=" + urllib.parse.quote(text))
            record.append((ms, status, text))

    # Warm up (term list, page cache), then the idle run.
    warm = Client(port)
    for text in texts[:200]:
        warm.request("GET", "/api/products?q=" + urllib.parse.quote(text))
    idle = []
    type_searches(Client(port), idle)

    stop = threading.Event()
    during, batch_times, pages, walks = [], [], [], []

    def typer():
        client = Client(port)
        while not stop.is_set():
            type_searches(client, during, stop)

    def pager():
        client = Client(port)
        while not stop.is_set():
            for query in pages_of:
                seen, repeats, cursor, count = set(), 0, None, 0
                while not stop.is_set():
                    url = "/api/products?q=" + urllib.parse.quote(query) + "&limit=20"
                    if cursor:
                        url += "&after=" + urllib.parse.quote(cursor)
                    ms, status, body = client.request("GET", url)
                    pages.append((ms, status, query))
                    if status != 200 or not body:
                        break
                    for product in body.get("products", []):
                        key = product["productId"].lower()
                        repeats += key in seen
                        seen.add(key)
                    count += 1
                    cursor = body.get("nextCursor")
                    if not cursor or count >= 50:
                        break
                walks.append((query, count, repeats))

    threads = [threading.Thread(target=typer)] + ([threading.Thread(target=pager)] if "--pager" in args else [])
    for thread in threads:
        thread.start()
    writer = Client(port)
    started = time.perf_counter()
    try:
        for number, productIds in enumerate(batch_ids, 1):
            title = f"Renewed Harbor Jacket {number}"
            ms, status, body = writer.request("POST", "/api/products/batch",
                                              {"action": "set", "productIds": productIds, "fields": {"title": title}})
            changed = body.get("changed", 0) if isinstance(body, dict) else 0
            batch_times.append((ms, status, changed))
            print(f"batch {number}: {ms / 1000:.3f} s, status {status}, {changed} changed", flush=True)
    finally:
        stream_seconds = time.perf_counter() - started
        stop.set()
        for thread in threads:
            thread.join()

    def errors(records):
        return sum(1 for r in records if r[1] != 200)

    ok_batches = [t[0] / 1000 for t in batch_times]
    median = percentile(ok_batches, 0.5)
    summary = {
        "batches": len(batch_times), "batchSize": batch_size, "streamSeconds": round(stream_seconds, 2),
        "batchMedian": round(median, 3), "batchMax": round(max(ok_batches), 3),
        "batchMaxOverMedian": round(max(ok_batches) / median, 2) if median else None,
        "batchErrors": errors(batch_times),
        "idle": {"searches": len(idle), "p50": round(percentile([r[0] for r in idle], 0.5), 2),
                 "p99": round(percentile([r[0] for r in idle], 0.99), 2), "worst": round(max(r[0] for r in idle), 2),
                 "errors": errors(idle)},
        "during": {"searches": len(during), "p50": round(percentile([r[0] for r in during], 0.5), 2),
                   "p99": round(percentile([r[0] for r in during], 0.99), 2),
                   "worst": round(max([r[0] for r in during] or [0]), 2), "errors": errors(during),
                   "statuses": sorted({r[1] for r in during})},
        "pages": {"requests": len(pages), "p99": round(percentile([r[0] for r in pages], 0.99), 2),
                  "worst": round(max([r[0] for r in pages] or [0]), 2), "errors": errors(pages),
                  "walks": len(walks), "walksWithRepeats": sum(1 for w in walks if w[2] > 0)},
        "slowestDuring": [(round(r[0], 1), r[2]) for r in sorted(during, reverse=True)[:5]],
    }
    summary["p99Ratio"] = round(summary["during"]["p99"] / summary["idle"]["p99"], 2)
    print(json.dumps(summary, indent=1))
    if out:
        with open(out, "w") as handle:
            json.dump({"summary": summary, "batchTimes": batch_times}, handle)


if __name__ == "__main__":
    main()
