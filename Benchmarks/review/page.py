#!/usr/bin/env python3
"""The review page at size (issue 34): opens a page made by `ohana review`
in headless Chromium and reports when it is ready and how long searches
take, as the page measures them (performance.now()) and as a user waits
for them (typing to the answer on screen).

    python3 Benchmarks/review/page.py review.html "Rossi" "+39 336" "@libero.it"

Needs Debian's chromium and chromium-driver and Selenium (pip); Selenium
Manager is never asked for a driver.
"""
import json
import sys
import time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.keys import Keys


def main(page, queries):
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for a in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1500,1100"):
        options.add_argument(a)
    driver = webdriver.Chrome(service=Service(executable_path="/usr/bin/chromedriver"), options=options)
    driver.set_page_load_timeout(300)
    try:
        t0 = time.time()
        driver.get("file://" + page)
        while driver.execute_script("return document.body.dataset.ready") != "1":
            time.sleep(0.02)
        ready_wall = time.time() - t0
        marks = driver.execute_script(
            "const b = document.body.dataset; return {parse_ms: Number(b.parseMs), ready_ms: Number(b.readyMs)}")
        result = {"page": page, "open_wall_s": round(ready_wall, 2), **marks, "searches": []}
        box = driver.find_element("id", "search")
        box.click()
        # The search strings are built when the box first gets focus.
        while driver.execute_script("return document.body.dataset.indexMs") in (None, ""):
            time.sleep(0.02)
        result["search_index_ms"] = float(driver.execute_script("return document.body.dataset.indexMs"))
        for q in queries:
            box.send_keys(Keys.CONTROL, "a")
            box.send_keys(Keys.DELETE)
            time.sleep(0.3)
            t = time.time()
            box.send_keys(q)
            while driver.execute_script("return document.getElementById('result-count').dataset.query") != q:
                time.sleep(0.005)
            wall = time.time() - t
            result["searches"].append({
                "query": q,
                "page_ms": float(driver.execute_script("return document.getElementById('result-count').dataset.ms")),
                "typed_to_answer_s": round(wall, 3),
                "answer": driver.find_element("id", "result-count").text,
            })
        result["js_heap_mb"] = driver.execute_script(
            "return performance.memory ? Math.round(performance.memory.usedJSHeapSize / 1e6) : null")
        print(json.dumps(result, indent=1))
    finally:
        driver.quit()


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2:])
