"""Opens a Paddle inference model (.pdmodel) in Netron under headless
Chromium, screenshots the graph and checks that the program's op nodes
appear (issue 16). Outside CI, like the benchmarks: scripts/netron-view.sh
installs Netron, Playwright and Debian's chromium, exports a model and
runs this.

Usage: netron_view.py MODEL.pdmodel OUT.png OP_TYPE...
Exit 0 when every OP_TYPE is drawn as a node; 1 otherwise.
"""

import os
import re
import socket
import subprocess
import sys
import time

from playwright.sync_api import sync_playwright


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def main():
    model, out, ops = sys.argv[1], sys.argv[2], sys.argv[3:]
    port = free_port()
    url = f"http://127.0.0.1:{port}/"
    server = subprocess.Popen(
        [os.path.join(os.path.dirname(sys.executable), "netron"), model, "--port", str(port), "--host", "127.0.0.1", "--verbosity", "quiet"]
    )
    try:
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.1)
        with sync_playwright() as p:
            # The flags keep Chromium off the network this machine closes.
            browser = p.chromium.launch(
                executable_path="/usr/bin/chromium",
                args=["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                      "--disable-background-networking", "--disable-component-update", "--disable-sync"],
            )
            page = browser.new_page(viewport={"width": 1400, "height": 1600})
            # Netron asks for consent to telemetry before it draws; a cookie
            # says it was given (Netron's browser.js reads `consent`).
            page.context.add_cookies([{"name": "consent", "value": "1", "url": url}])
            page.goto(url)
            page.wait_for_selector("g.node", timeout=30_000)
            page.wait_for_timeout(1000)
            # (Netron replaces window.eval, so the page's HTML is read whole.)
            html = page.content()
            drawn = set(re.findall(r'node-item-type[^"]*"[^>]*>(?:(?!</g>).)*?<text[^>]*>([^<]+)</text>', html))
            page.screenshot(path=out, full_page=True)
            browser.close()
    finally:
        server.terminate()
    missing = [op for op in ops if op not in drawn]
    print(f"{out}: {len(drawn)} op types drawn: {', '.join(sorted(drawn))}")
    if missing:
        print(f"not drawn: {', '.join(missing)}", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
