#!/usr/bin/env python3
"""Drives the `catalog serve` page in headless Chromium, as a person would.

Over a generated catalog of 10,000 products it checks, in order:
  1. typing a prefix shows the first 20 matches and their count; typing the start of a title
     word finds the products with that word;
  2. scrolling to the end loads the next 20 (40 in all), with the loading indicator;
  3. clearing the box shows the whole catalog again;
  4. uploading a CSV shows a live progress bar that reaches the end with the right counts,
     a link to the rejected rows, and the refreshed list;
  5. screenshots in light and dark mode, and at phone width without sideways scrolling;
  6. adding a product with an invalid price shows the field error; fixing it adds the
     product, which a search then finds;
  7. the browser logged no console error (the one expected 422 of step 6 aside).
It prints one line per check and a closing `N passed, N failed`; the exit status is 1 when any failed.

Usage: browser_test.py --catalog PATH/TO/catalog [--screenshots DIR]
"""

import argparse
import csv
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import traceback
import urllib.parse
import urllib.request

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

CATALOG_ROWS = 10_000
UPLOAD_ROWS = 200_000
WAIT_SECONDS = 30
IMPORT_WAIT_SECONDS = 180


class Server:
    """`catalog serve` on 127.0.0.1 and a port the system picks, stopped at the end."""

    def __init__(self, catalog, database):
        self.process = subprocess.Popen(
            [catalog, "serve", "--db", database, "--host", "127.0.0.1", "--port", "0"],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        self.url = None
        ready = threading.Event()

        def read_output():
            for line in self.process.stdout:
                if self.url is None and "http://" in line:
                    self.url = line[line.index("http://"):].split()[0]
                    ready.set()
            ready.set()

        threading.Thread(target=read_output, daemon=True).start()
        if not ready.wait(WAIT_SECONDS) or self.url is None:
            self.stop()
            raise RuntimeError("catalog serve did not print the address it listens on")

    def get_json(self, path, **query):
        url = self.url.rstrip("/") + path + ("?" + urllib.parse.urlencode(query) if query else "")
        with urllib.request.urlopen(url, timeout=WAIT_SECONDS) as response:
            return json.load(response)

    def get_text(self, path):
        with urllib.request.urlopen(self.url.rstrip("/") + path, timeout=WAIT_SECONDS) as response:
            return response.read().decode("utf-8")

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(WAIT_SECONDS)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


class BrowserTest:
    def __init__(self, catalog, screenshots, work):
        self.catalog = catalog
        self.screenshots = screenshots
        self.work = work
        self.passed = 0
        self.failed = 0
        self.console = []
        database = os.path.join(work, "catalog.sqlite")
        products = os.path.join(work, "products.csv")
        self.run_catalog("generate", "--rows", str(CATALOG_ROWS), "--seed", "1", "--output", products)
        self.run_catalog("import", products, "--db", database)
        self.server = Server(catalog, database)
        self.driver = self.start_browser()

    def run_catalog(self, *arguments):
        result = subprocess.run([self.catalog, *arguments], capture_output=True, text=True)
        if result.returncode != 0:
            raise RuntimeError(f"catalog {' '.join(arguments)} failed: {result.stderr}")

    @staticmethod
    def start_browser():
        options = webdriver.ChromeOptions()
        options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
        for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                         "--window-size=1280,900", "--lang=en-US"):
            options.add_argument(argument)
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        driver_path = shutil.which("chromedriver") or "/usr/bin/chromedriver"
        return webdriver.Chrome(service=Service(executable_path=driver_path), options=options)

    # MARK: - Helpers

    def check(self, name, action):
        try:
            action()
        except Exception as error:  # a failed check is reported, and the next one still runs
            self.failed += 1
            print(f"FAIL {name}: {error}")
            traceback.print_exc(limit=3, file=sys.stdout)
        else:
            self.passed += 1
            print(f"PASS {name}")
        self.collect_console()

    def wait(self, condition, message, seconds=WAIT_SECONDS):
        try:
            return WebDriverWait(self.driver, seconds, poll_frequency=0.05).until(lambda driver: condition())
        except Exception:
            raise AssertionError(f"{message} (waited {seconds} s)") from None

    def element(self, element_id):
        return self.driver.find_element(By.ID, element_id)

    def row_ids(self):
        return self.driver.execute_script(
            "return Array.from(document.querySelectorAll('#rows tr'), row => row.dataset.productId)")

    def expected_ids(self, text, pages):
        """The first `pages` pages the API gives for the search box's text, as the page asks for them."""
        ids, cursor = [], None
        for _ in range(pages):
            query = {"q": text, "limit": 20}
            if cursor:
                query["after"] = cursor
            page = self.server.get_json("/api/products", **query)
            ids += [product["productId"] for product in page["products"]]
            cursor = page["nextCursor"]
            if not cursor:
                break
        return ids

    def type_in_search(self, text):
        box = self.element("search")
        box.click()
        box.send_keys(Keys.CONTROL, "a")
        box.send_keys(Keys.BACKSPACE)
        if text:
            box.send_keys(text)

    def collect_console(self):
        self.console += self.driver.get_log("browser")

    def screenshot(self, name):
        os.makedirs(self.screenshots, exist_ok=True)
        path = os.path.join(self.screenshots, name)
        self.driver.save_screenshot(path)
        return path

    # MARK: - Steps

    def open_page(self):
        self.driver.get(self.server.url)
        self.wait(lambda: self.element("count").text == "10,000 products in the catalog",
                  "the page never showed the catalog's 10,000 products")
        self.wait(lambda: len(self.row_ids()) == 20, "the page did not list the first 20 products")

    def search_prefix(self):
        self.prefix = self.choose_prefix()
        expected = self.expected_ids(self.prefix, 1)
        count = self.server.get_json("/api/products", q=self.prefix)["count"]
        self.type_in_search(self.prefix.lower())
        self.wait(lambda: self.row_ids() == expected,
                  f"typing {self.prefix.lower()!r} did not show the first 20 matches {expected[:3]}…; saw {self.row_ids()[:3]}…")
        assert expected[0].lower().startswith(self.prefix.lower()), "the first match is not a productId match"
        wanted = f"{count:,} products match “{self.prefix.lower()}”"
        self.wait(lambda: self.element("count").text == wanted, f"the count did not read {wanted!r}")

    def search_words(self):
        """The start of two words of a product's title finds it among the products with such words."""
        product = self.server.get_json("/api/products", q="", limit=1)["products"][0]
        words = [word for word in product["title"].split() if word.isalpha() and len(word) >= 4][:2]
        assert words, f"no word of four letters or more in {product['title']!r}"
        text = " ".join(word[:3].lower() for word in words)
        expected = self.expected_ids(text, 1)
        assert product["productId"] in self.expected_ids(text, 50), f"the API does not find {product['productId']} by {text!r}"
        page = self.server.get_json("/api/products", q=text)
        self.type_in_search(text)
        self.wait(lambda: self.row_ids() == expected,
                  f"typing {text!r} did not show the word matches {expected[:3]}…; saw {self.row_ids()[:3]}…")
        amount = f"{page['count']:,}" + ("" if page["countComplete"] else "+")
        wanted = f"{amount} products match “{text}”" if page["count"] != 1 else f"1 product matches “{text}”"
        self.wait(lambda: self.element("count").text == wanted, f"the count did not read {wanted!r}")
        self.type_in_search(self.prefix.lower())
        self.wait(lambda: self.row_ids() == self.expected_ids(self.prefix, 1), "typing the prefix again did not list its matches")

    def choose_prefix(self):
        """A two-character prefix of the first product with more than 40 matches, so there are 3+ pages."""
        first = self.server.get_json("/api/products", limit=1)["products"][0]["productId"]
        for length in (2, 1):
            prefix = first[:length]
            if self.server.get_json("/api/products", q=prefix, limit=1)["count"] > 40:
                return prefix
        raise AssertionError(f"no prefix of {first!r} has more than 40 products")

    def scroll_for_more(self):
        expected = self.expected_ids(self.prefix, 2)
        self.driver.execute_script("""
            window.loadingShown = false;
            new MutationObserver(() => { if (!document.getElementById('loading').hidden) window.loadingShown = true; })
              .observe(document.getElementById('loading'), { attributes: true });
            window.scrollTo(0, document.body.scrollHeight);""")
        self.wait(lambda: len(self.row_ids()) == 40, f"scrolling did not load 40 rows; saw {len(self.row_ids())}")
        assert self.row_ids() == expected, "rows 21–40 are not the second page of matches"
        assert self.driver.execute_script("return window.loadingShown"), "no loading indicator while the page loaded"

    def clear_search(self):
        expected = self.expected_ids("", 1)
        self.driver.execute_script("window.scrollTo(0, 0)")
        self.type_in_search("")
        self.wait(lambda: self.row_ids() == expected, "clearing the box did not list the catalog from its start")
        self.wait(lambda: self.element("count").text == "10,000 products in the catalog", "the count did not return to 10,000")

    def upload_csv(self):
        upload = os.path.join(self.work, "upload.csv")
        self.run_catalog("generate", "--rows", str(UPLOAD_ROWS), "--seed", "2", "--output", upload)
        with open(upload, newline="", encoding="utf-8") as file:
            rows = list(csv.reader(file))
        with open(upload, "a", newline="", encoding="utf-8") as file:
            writer = csv.writer(file, lineterminator="\n")
            writer.writerow(rows[1])                                             # a duplicate productId
            writer.writerow(["ZZ-BAD-1", "Broken price", "abc"] + [""] * (len(rows[0]) - 3))   # rejected
        self.element("import-button").click()
        self.wait(lambda: self.element("import-file").is_displayed(), "the import panel did not open")
        self.driver.execute_script("""
            window.progressSeen = [];
            new MutationObserver(() => window.progressSeen.push(document.getElementById('import-progress').value))
              .observe(document.getElementById('import-progress'), { attributes: true });""")
        self.element("import-file").send_keys(upload)
        self.element("import-start").click()
        self.wait(lambda: self.element("import-summary").text != "" or self.element("import-error").text != "",
                  "the import did not finish", IMPORT_WAIT_SECONDS)
        assert self.element("import-error").text == "", f"the import failed: {self.element('import-error').text}"
        summary = self.element("import-summary").text
        for part in (f"Imported {UPLOAD_ROWS:,} products", f"{UPLOAD_ROWS + 2:,} rows read", "1 rejected", "1 duplicate collapsed"):
            assert part in summary, f"the summary {summary!r} does not say {part!r}"
        bar = self.element("import-progress")
        assert bar.get_attribute("value") == bar.get_attribute("max") == "100", "the progress bar did not reach the end"
        assert self.element("import-rows").text == f"{UPLOAD_ROWS + 2:,}", "the rows counter is not the rows read"
        assert self.element("import-rejected").text == "1", "the rejected counter is not 1"
        seen = self.driver.execute_script("return window.progressSeen")
        assert any(0 < value < 100 for value in seen), f"the bar never showed progress between 0 and 100: {seen}"
        link = self.element("import-rejects-link")
        assert link.is_displayed(), "no link to the rejected rows"
        rejects = self.server.get_text(urllib.parse.urlparse(link.get_attribute("href")).path)
        assert "ZZ-BAD-1" in rejects, "the rejects file does not hold the rejected row"
        self.wait(lambda: self.element("count").text == f"{UPLOAD_ROWS:,} products in the catalog",
                  "the list did not refresh to the imported catalog")
        self.wait(lambda: self.row_ids() == self.expected_ids("", 1), "the list does not show the new catalog")

    def add_product(self):
        self.driver.execute_script("window.scrollTo(0, 0)")
        self.element("add-button").click()
        self.wait(lambda: self.element("editor").is_displayed(), "the add form did not open")
        fields = {"productId": "ZZ-BROWSER-1", "title": "Browser test mug", "listPrice": "12.345", "color": "Teal"}
        for name, value in fields.items():
            self.element("field-" + name).send_keys(value)
        self.element("editor-save").click()
        self.wait(lambda: "at most 2 decimals" in self.element("error-listPrice").text,
                  "no error next to the list price")
        assert self.element("field-listPrice").get_attribute("aria-invalid") == "true", "the price is not marked invalid"
        assert self.element("editor").is_displayed(), "the form closed despite the error"
        price = self.element("field-listPrice")
        price.send_keys(Keys.CONTROL, "a")
        price.send_keys("12.34")
        self.element("editor-save").click()
        self.wait(lambda: not self.element("editor").is_displayed(), "the form did not close after a valid save")
        self.wait(lambda: self.element("message").text == "Added ZZ-BROWSER-1.", "no success message")
        self.type_in_search("zz-browser")
        self.wait(lambda: self.row_ids() == ["ZZ-BROWSER-1"], f"searching did not find the new product; saw {self.row_ids()}")
        # The cells are read in one script run: the list may be redrawn between two WebDriver calls.
        def row_texts():
            return self.driver.execute_script(
                "return Array.from(document.querySelectorAll('#rows tr td'), cell => cell.innerText.trim())")
        self.wait(lambda: "Browser test mug" in row_texts() and "12.34" in row_texts(),
                  "the row does not show the new title and price")

    def take_screenshots(self):
        """The page after the import: its summary above the refreshed list."""
        self.wait(lambda: self.element("loading").get_attribute("hidden") is not None, "a page is still loading")
        self.driver.execute_script("window.scrollTo(0, 0)")
        light = self.screenshot("catalog-serve-light.png")
        self.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "dark"}]})
        self.wait(lambda: self.driver.execute_script("return matchMedia('(prefers-color-scheme: dark)').matches"),
                  "dark mode was not applied")
        background = self.driver.execute_script("return getComputedStyle(document.body).backgroundColor")
        assert background == "rgb(18, 20, 22)", f"dark mode did not change the page's colours ({background})"
        dark = self.screenshot("catalog-serve-dark.png")
        # Headless Chromium's window is at least 500 pixels wide: emulate a phone's screen instead.
        self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                                    {"width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True})
        self.wait(lambda: self.driver.execute_script("return innerWidth") == 390, "the page did not narrow to 390 pixels")
        widths = self.driver.execute_script(
            "return [document.documentElement.scrollWidth, document.documentElement.clientWidth]")
        assert widths[0] <= widths[1], f"the page scrolls sideways at phone width ({widths[0]} > {widths[1]} pixels)"
        phone = self.screenshot("catalog-serve-phone-dark.png")
        self.driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
        self.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "light"}]})
        for path in (light, dark, phone):
            assert os.path.getsize(path) > 10_000, f"{path} looks empty"
        print(f"     screenshots: {light}, {dark}, {phone}")

    def no_console_errors(self):
        self.collect_console()
        errors = [entry for entry in self.console if entry["level"] == "SEVERE"]
        # Step 6 sends one invalid product on purpose; Chromium logs its 422 answer as a failed load.
        expected = [entry for entry in errors
                    if entry.get("source") == "network" and "/api/products " in entry["message"] and "status of 422" in entry["message"]]
        unexpected = [entry for entry in errors if entry not in expected]
        assert not unexpected, "console errors: " + "; ".join(entry["message"] for entry in unexpected)
        assert len(expected) == 1, f"expected exactly one logged 422 from the invalid price, saw {len(expected)}"

    def run(self):
        self.check("the page lists the catalog", self.open_page)
        self.check("typing a prefix shows the first 20 matches and their count", self.search_prefix)
        self.check("typing the start of title words finds the products with those words", self.search_words)
        self.check("scrolling to the end loads the next 20", self.scroll_for_more)
        self.check("clearing the box lists the whole catalog", self.clear_search)
        self.check("uploading a CSV shows live progress to the end with the right counts", self.upload_csv)
        self.check("screenshots in light and dark mode, and at phone width", self.take_screenshots)
        self.check("an invalid price shows a field error, and the fixed product is found", self.add_product)
        self.check("the browser logged no console error", self.no_console_errors)

    def close(self):
        try:
            self.driver.quit()
        finally:
            self.server.stop()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--catalog", required=True, help="the catalog executable")
    parser.add_argument("--screenshots", default=".build-browser/screenshots", help="where to save the screenshots")
    arguments = parser.parse_args()
    catalog = os.path.abspath(arguments.catalog)
    with tempfile.TemporaryDirectory(prefix="catalog-browser-test.") as work:
        test = BrowserTest(catalog, os.path.abspath(arguments.screenshots), work)
        try:
            test.run()
        finally:
            test.close()
    print(f"{test.passed} passed, {test.failed} failed")
    return 1 if test.failed else 0


if __name__ == "__main__":
    sys.exit(main())
