"""How the catalog file could be written so that searches never wait for writes: the choices
measured side by side on copies of one catalog, in one run, with the system's SQLite.

    python3 storage_choices.py CATALOG.sqlite [--seconds 8] [--rounds 2] [--work DIR]

1. Readers under commits. Two reader processes read pages of 20 products by productId range
   without pause while a writer process commits transactions of 1,000 title changes back to back
   (the catalog's own triggers fire, as they would for an edit). Once with the file in rollback
   journal mode (as catalogs are written today), once in WAL mode (synchronous NORMAL, and FULL);
   alternating, `--rounds` times. Reports each reader's latency percentiles and the writer's
   transactions.
2. The swap of a replacing import. A finished build beside the live catalog goes live either by
   rename (today: fsync the build, rename it over the live file, fsync the folder) or, with the
   live file in WAL mode, by copying its pages into the live file with SQLite's backup API in one
   transaction (what a swap inside the file costs), then checkpointing the WAL into the file.

Prints a Markdown table per part.
"""
import multiprocessing
import os
import random
import shutil
import sqlite3
import statistics
import sys
import time


def percentile(values, share):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * share))] if ordered else float("nan")


def read_ids(path, count=200000):
    connection = sqlite3.connect(path)
    total = connection.execute("SELECT count(*) FROM products").fetchone()[0]
    step = max(1, total // count)
    ids = [row[0] for i, row in enumerate(connection.execute("SELECT productId FROM products")) if i % step == 0]
    connection.close()
    return ids


def reader(path, ids, seconds, queue, seed):
    random.seed(seed)
    connection = sqlite3.connect(path, timeout=30, isolation_level=None)
    connection.execute("PRAGMA query_only = 1")
    timings, errors = [], 0
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        start_key = random.choice(ids)
        started = time.perf_counter()
        try:
            rows = connection.execute(
                "SELECT productId, title, listPriceMilli FROM products WHERE productId >= ? ORDER BY productId LIMIT 20",
                (start_key,)).fetchall()
            assert rows
        except sqlite3.OperationalError:
            errors += 1
        timings.append((time.perf_counter() - started) * 1000)
    connection.close()
    queue.put(("reader", timings, errors))


def writer(path, ids, seconds, synchronous, queue, seed):
    random.seed(seed)
    connection = sqlite3.connect(path, timeout=30, isolation_level=None)
    connection.execute(f"PRAGMA synchronous = {synchronous}")
    transactions = []
    end = time.perf_counter() + seconds
    number = 0
    while time.perf_counter() < end:
        number += 1
        chosen = random.sample(ids, 1000)
        started = time.perf_counter()
        connection.execute("BEGIN IMMEDIATE")
        for productId in chosen:
            connection.execute("UPDATE products SET title = ? WHERE productId = ?", (f"Renewed Harbor Jacket {number}", productId))
        connection.execute("COMMIT")
        transactions.append((time.perf_counter() - started) * 1000)
    connection.close()
    queue.put(("writer", transactions, 0))


def readers_under_commits(catalog, work, seconds, rounds):
    ids = read_ids(catalog)
    rows = []
    for round_number in range(rounds):
        for mode, synchronous in (("delete", "FULL"), ("wal", "NORMAL"), ("wal", "FULL")):
            path = os.path.join(work, f"readers-{mode}.sqlite")
            for suffix in ("", "-journal", "-wal", "-shm"):
                if os.path.exists(path + suffix):
                    os.remove(path + suffix)
            shutil.copyfile(catalog, path)
            setup = sqlite3.connect(path, isolation_level=None)
            setup.execute(f"PRAGMA journal_mode = {mode}")
            setup.close()
            os.system("sync")
            # Warm the page cache as a server that has been searching would have it.
            with open(path, "rb") as handle:
                while handle.read(1 << 20):
                    pass
            queue = multiprocessing.Queue()
            processes = [multiprocessing.Process(target=reader, args=(path, ids, seconds, queue, round_number * 10 + n)) for n in range(2)]
            processes.append(multiprocessing.Process(target=writer, args=(path, ids, seconds, synchronous, queue, round_number)))
            for process in processes:
                process.start()
            results = [queue.get() for _ in processes]
            for process in processes:
                process.join()
            reads = [t for kind, timings, _ in results if kind == "reader" for t in timings]
            errors = sum(e for kind, _, e in results if kind == "reader")
            writes = [t for kind, timings, _ in results if kind == "writer" for t in timings]
            rows.append((round_number + 1, f"{mode} / synchronous {synchronous}", len(reads), percentile(reads, 0.5),
                         percentile(reads, 0.99), percentile(reads, 0.999), max(reads), errors, len(writes),
                         statistics.median(writes) if writes else float("nan"), max(writes) if writes else float("nan")))
            print(rows[-1], file=sys.stderr, flush=True)
    print("| round | file | reads | read p50 ms | p99 ms | p99.9 ms | worst ms | read errors | write txns | txn median ms | txn worst ms |")
    print("|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for row in rows:
        print("| %d | %s | %d | %.3f | %.2f | %.2f | %.1f | %d | %d | %.1f | %.1f |" % row)


def fsync_path(path, directory=False):
    descriptor = os.open(path, os.O_RDONLY | (os.O_DIRECTORY if directory else 0))
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)


def swaps(catalog, work, rounds):
    rows = []
    for round_number in range(rounds):
        # By rename: the build is synced, renamed over the live file, and the folder synced.
        live, build = os.path.join(work, "swap-live.sqlite"), os.path.join(work, "swap-live.sqlite.importing")
        for path in (live, build, live + "-wal", live + "-shm"):
            if os.path.exists(path):
                os.remove(path)
        shutil.copyfile(catalog, live)
        shutil.copyfile(catalog, build)
        os.system("sync")
        started = time.perf_counter()
        fsync_path(build)
        os.rename(build, live)
        fsync_path(work, directory=True)
        rows.append((round_number + 1, "rename (today)", (time.perf_counter() - started), 0.0))
        # Inside the file: the live file in WAL mode, the build's pages copied in by the backup API.
        for synchronous in ("NORMAL", "FULL"):
            for path in (live, build, live + "-wal", live + "-shm"):
                if os.path.exists(path):
                    os.remove(path)
            shutil.copyfile(catalog, live)
            shutil.copyfile(catalog, build)
            connection = sqlite3.connect(live, isolation_level=None)
            connection.execute("PRAGMA journal_mode = WAL")
            connection.execute(f"PRAGMA synchronous = {synchronous}")
            connection.execute("SELECT count(*) FROM sqlite_master").fetchone()
            os.system("sync")
            source = sqlite3.connect(build)
            started = time.perf_counter()
            source.backup(connection)
            copied = time.perf_counter() - started
            started = time.perf_counter()
            connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            checkpoint = time.perf_counter() - started
            source.close()
            connection.close()
            rows.append((round_number + 1, f"backup into WAL, synchronous {synchronous}", copied, checkpoint))
            print(rows[-1], file=sys.stderr, flush=True)
    size = os.path.getsize(catalog) / 1e6
    print(f"\nThe catalog: {size:.0f} MB.\n")
    print("| round | swap | seconds | then checkpoint s |")
    print("|---:|---|---:|---:|")
    for row in rows:
        print("| %d | %s | %.3f | %.3f |" % row)


def main():
    args = sys.argv[1:]
    catalog = args[0]

    def option(name, default):
        return type(default)(args[args.index(name) + 1]) if name in args else default

    seconds, rounds = option("--seconds", 8.0), option("--rounds", 2)
    work = option("--work", os.path.join(os.environ.get("TMPDIR", "/tmp"), "productcatalog-storage"))
    os.makedirs(work, exist_ok=True)
    print(f"## Readers under commits ({seconds:.0f} s each, 2 readers, 1 writer of 1,000-title transactions)\n")
    readers_under_commits(catalog, work, seconds, rounds)
    print("\n## The swap of a replacing import\n")
    swaps(catalog, work, rounds)


if __name__ == "__main__":
    main()
