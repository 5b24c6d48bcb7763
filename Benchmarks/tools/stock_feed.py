#!/usr/bin/env python3
"""Writes a Google local inventory feed (store_code,id,quantity,availability) for the products of a
product CSV: every product at each of STORES stores, the rows grouped by store as Google's feeds are
and the products of each store in a shuffled order. Stores differ in how many of their products are in
stock (quantity above 0): 70%, 50%, 20%, 5% and 1%, in turn, so a store filter meets dense and sparse stores.

Usage: stock_feed.py PRODUCTS.csv STORES OUTPUT.csv [--seed N]
"""
import argparse
import csv
import random

parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
parser.add_argument("products")
parser.add_argument("stores", type=int)
parser.add_argument("output")
parser.add_argument("--seed", type=int, default=7)
arguments = parser.parse_args()

with open(arguments.products, newline="") as file:
    reader = csv.reader(file)
    next(reader)
    ids = [row[0] for row in reader]
rng = random.Random(arguments.seed)
places = ["Mitte", "Harbour", "Old Town", "Airport", "Mall", "Station"]
stores = [f"Store {index:02d} {rng.choice(places)}" for index in range(arguments.stores)]
with open(arguments.output, "w", newline="") as file:
    writer = csv.writer(file, lineterminator="\n")
    writer.writerow(["store_code", "id", "quantity", "availability"])
    for index, store in enumerate(stores):
        in_stock = [0.7, 0.5, 0.2, 0.05, 0.01][index % 5]
        order = ids[:]
        rng.shuffle(order)
        for product_id in order:
            quantity = rng.choice([1, 2, 3, 5, 8, 13, 40]) if rng.random() < in_stock else 0
            writer.writerow([store, product_id, quantity, "in_stock" if quantity else "out_of_stock"])
