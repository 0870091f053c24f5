#!/usr/bin/env python3
"""Loads a sweep's report.html in headless Chromium and checks what a reader sees.

Usage: report_browser.py REPORT.html POINTS SCREENSHOT.png

Drives Chromium over the DevTools protocol on a pipe (--remote-debugging-pipe:
JSON messages separated by NUL bytes on file descriptors 3 and 4), Python
standard library only.  Checks, printing one line per failure and exiting 1:
  - the points table has POINTS rows (DataTables' own count, every page);
  - clicking a numeric column's header sorts the rows by it, both ways;
  - every <img> decoded and every <video> has its metadata, no error;
  - no console message or log entry of level error (CSP violations included),
    no exception, and no request to anything but file: and data: URLs;
  - window.pwned is not set (the hostile values in the test's sweep try to);
  - every chart (an SVG <img>) spans the page's width and its text, as
    drawn in the 1400 px window, is at least 12 px high; so is the page's;
and writes a screenshot to SCREENSHOT.png.
"""
import base64
import json
import os
import select
import shutil
import subprocess
import sys
import tempfile
import time


class Browser:
    def __init__(self, profile):
        exe = shutil.which("chromium") or shutil.which("chromium-browser")
        if not exe:
            raise SystemExit("report_browser: chromium is not installed")
        to_child, self.w = os.pipe()
        self.r, from_child = os.pipe()

        def fds():
            # through fresh descriptors: dup2 onto itself would keep close-on-exec
            a, b = os.dup(to_child), os.dup(from_child)
            os.dup2(a, 3)
            os.dup2(b, 4)
        self.proc = subprocess.Popen(
            [exe, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
             "--disable-component-update", "--no-first-run", "--no-default-browser-check",
             "--disable-extensions", "--disable-sync", "--mute-audio", "--hide-scrollbars",
             f"--user-data-dir={profile}", "--remote-debugging-pipe", "--window-size=1400,1000",
             "about:blank"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            preexec_fn=fds, close_fds=False)
        os.close(to_child)
        os.close(from_child)
        self.buf, self.next_id, self.events = b"", 0, []

    def send(self, method, params=None, session=None):
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        os.write(self.w, json.dumps(msg).encode() + b"\0")
        return self.next_id

    def read(self, timeout):
        """The next message, or None after timeout seconds."""
        end = time.monotonic() + timeout
        while b"\0" not in self.buf:
            left = end - time.monotonic()
            if left <= 0 or not select.select([self.r], [], [], left)[0]:
                return None
            chunk = os.read(self.r, 1 << 20)
            if not chunk:
                raise SystemExit("report_browser: chromium closed the pipe")
            self.buf += chunk
        msg, self.buf = self.buf.split(b"\0", 1)
        return json.loads(msg)

    def call(self, method, params=None, session=None, timeout=60):
        i = self.send(method, params, session)
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            m = self.read(end - time.monotonic())
            if m is None:
                break
            if m.get("id") == i:
                if "error" in m:
                    raise SystemExit(f"report_browser: {method}: {m['error']}")
                return m.get("result", {})
            self.events.append(m)
        raise SystemExit(f"report_browser: no answer to {method}")

    def wait_event(self, name, timeout=60):
        end = time.monotonic() + timeout
        for m in self.events:
            if m.get("method") == name:
                return m
        while time.monotonic() < end:
            m = self.read(end - time.monotonic())
            if m is None:
                break
            self.events.append(m)
            if m.get("method") == name:
                return m
        raise SystemExit(f"report_browser: no {name} event")

    def close(self):
        try:
            self.send("Browser.close")
            self.proc.wait(timeout=10)
        except (OSError, subprocess.TimeoutExpired):
            self.proc.kill()
            self.proc.wait()


# Text smaller than this is not read comfortably (the window is 1400 px wide)
MIN_TEXT_PX = 12


def readable(js):
    """Every chart drawn across the page's width with its text at least
    MIN_TEXT_PX high as shown, and the page's own text too: for each SVG
    <img>, the font size of each <text> (its own or an ancestor's, in the
    SVG's units) times the ratio of the drawn width to the SVG's width."""
    fails = []
    got = js("""(function () {
        var out = {charts: [], page: 1e9, pageText: ''};
        var content = document.body.clientWidth;
        [].forEach.call(document.querySelectorAll('img[src^="data:image/svg+xml;base64,"]'), function (img) {
          var svg = new DOMParser().parseFromString(atob(img.getAttribute('src').split(',')[1]), 'image/svg+xml')
            .documentElement;
          var vb = (svg.getAttribute('viewBox') || '').split(/[ ,]+/).map(Number);
          var w = vb.length === 4 ? vb[2] : parseFloat(svg.getAttribute('width'));
          var scale = img.getBoundingClientRect().width / w, least = 1e9, word = '';
          [].forEach.call(svg.querySelectorAll('text'), function (t) {
            if (!t.textContent.trim()) return;
            for (var e = t; e && e.getAttribute; e = e.parentNode) {
              var m = /font-size:\s*([0-9.]+)/.exec(e.getAttribute('style') || '');
              var size = m ? parseFloat(m[1]) : parseFloat(e.getAttribute('font-size'));
              if (size > 0) { if (size * scale < least) { least = size * scale; word = t.textContent; } return; }
            }
          });
          out.charts.push({alt: img.alt, width: img.getBoundingClientRect().width, content: content,
                           least: least, word: word});
        });
        var walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
        for (var n = walk.nextNode(); n; n = walk.nextNode()) {
          var el = n.parentElement;
          if (!n.textContent.trim() || !el || el.closest('script, style') || !el.getClientRects().length) continue;
          var px = parseFloat(getComputedStyle(el).fontSize);
          if (px < out.page) { out.page = px; out.pageText = n.textContent.trim().slice(0, 40); }
        }
        return out; })()""")
    for c in got["charts"]:
        if c["width"] < 0.9 * c["content"]:
            fails.append(f"the chart '{c['alt']}' is {c['width']:.0f} px wide, not the page's {c['content']} px")
        if c["least"] < MIN_TEXT_PX:
            fails.append(f"the chart '{c['alt']}' has text of {c['least']:.1f} px ('{c['word'][:30]}'), "
                         f"under {MIN_TEXT_PX} px")
    if got["page"] < MIN_TEXT_PX:
        fails.append(f"the page has text of {got['page']:.1f} px ('{got['pageText']}'), under {MIN_TEXT_PX} px")
    print(f"report_browser: {len(got['charts'])} charts, their smallest text "
          f"{min([c['least'] for c in got['charts']] or [0]):.1f} px; the page's {got['page']:.1f} px")
    return fails


def main(argv):
    if len(argv) != 4:
        print(__doc__, file=sys.stderr)
        return 2
    page, points, shot = os.path.abspath(argv[1]), int(argv[2]), argv[3]
    profile = tempfile.mkdtemp(prefix="boids-chromium-", dir=os.path.dirname(os.path.abspath(shot)))
    b = Browser(profile)
    fails = []
    try:
        target = b.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        s = b.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        for dom in ("Runtime", "Log", "Network", "Page"):
            b.call(f"{dom}.enable", session=s)

        def js(expr, timeout=60):
            r = b.call("Runtime.evaluate", {"expression": expr, "returnByValue": True, "awaitPromise": True},
                       session=s, timeout=timeout)
            if "exceptionDetails" in r:
                raise SystemExit(f"report_browser: {expr[:60]}...: {r['exceptionDetails']}")
            return r["result"].get("value")

        b.call("Page.navigate", {"url": "file://" + page}, session=s)
        b.wait_event("Page.loadEventFired")
        # the page's own script marks the body when DataTables is done; media
        # elements report when their metadata is in (or fail)
        ready = js("""new Promise(function (done) {
            var t0 = Date.now();
            (function poll() {
              var media = Array.prototype.slice.call(document.querySelectorAll('video'));
              var imgs = Array.prototype.slice.call(document.querySelectorAll('img'));
              var settled = media.every(function (v) { return v.readyState >= 1 || v.error; }) &&
                            imgs.every(function (i) { return i.complete; });
              if (document.body.dataset.ready === '1' && settled) return done(true);
              if (Date.now() - t0 > 30000) return done(false);
              setTimeout(poll, 50);
            })();
          })""", timeout=40)
        if not ready:
            fails.append("the page did not get ready in 30 s (DataTables, images or videos)")
        n = js("$('#points').DataTable().rows().count()")
        if n != points:
            fails.append(f"the points table has {n} rows, not {points}")
        plain = js("document.querySelectorAll('#points tbody tr').length")
        # sort by a numeric column: click its header, as a reader does, twice
        col = js("""(function () {
            var th = $('#points thead th'); for (var k = 0; k < th.length; k++)
              if (/_final$/.test(th.eq(k).text())) return k; return -1; })()""")
        if col < 0:
            fails.append("no metric column in the points table")
        else:
            for way in ("asc", "desc"):
                js(f"$('#points thead th').eq({col}).click(); 0")
                vals = js(f"""$('#points').DataTable().column({col}, {{order: 'current'}}).nodes().toArray()
                          .map(function (td) {{ return td.getAttribute('data-order'); }})""")
                nums = [float(v) for v in vals if v not in (None, "")]
                want = sorted(nums, reverse=way == "desc")
                if nums != want:
                    fails.append(f"clicking the header of column {col} does not sort it {way}: {nums[:8]}")
                shown = js(f"$('#points tbody tr').first().children().eq({col}).attr('data-order')")
                if nums and shown is not None and float(shown) != want[0]:
                    fails.append(f"the first row shown after sorting {way} is {shown}, not {want[0]}")
        media = js("""[].map.call(document.querySelectorAll('img, video'), function (e) {
            return {tag: e.tagName, src: e.currentSrc || e.src, ok: e.tagName === 'IMG' ?
              (e.complete && e.naturalWidth > 0) : (e.readyState >= 1 && !e.error)}; })""")
        for m in media:
            if not m["ok"]:
                fails.append(f"{m['tag'].lower()} did not load: {m['src'][:120]}")
        fails += readable(js)
        if js("typeof window.pwned") != "undefined":
            fails.append(f"a value from the sweep ran as code: window.pwned = {js('window.pwned')}")
        foreign = js("""[].filter.call(document.querySelectorAll('[href], [src], [poster], [action]'),
            function (e) { return /^\\s*javascript:/i.test(e.getAttribute('href') || e.getAttribute('src') || ''); })
            .length""")
        if foreign:
            fails.append(f"{foreign} elements link to javascript: URLs")
        # the whole page (up to 4000 px high), as a reader scrolls it
        height = min(4000, js("document.documentElement.scrollHeight"))
        b.call("Emulation.setDeviceMetricsOverride", {"width": 1400, "height": height, "deviceScaleFactor": 1,
                                                      "mobile": False}, session=s)
        shot_data = b.call("Page.captureScreenshot", {"format": "png"}, session=s)
        with open(shot, "wb") as f:
            f.write(base64.b64decode(shot_data["data"]))
        # what the page asked for, said or threw, while loading and clicking
        b.call("Runtime.evaluate", {"expression": "0"}, session=s)
        for m in b.events:
            meth, p = m.get("method"), m.get("params", {})
            if meth == "Network.requestWillBeSent":
                u = p["request"]["url"]
                if not (u.startswith("file://") or u.startswith("data:")):
                    fails.append(f"a request left the page for {u[:120]}")
            elif meth == "Runtime.consoleAPICalled" and p.get("type") in ("error", "assert"):
                fails.append("console error: " + " ".join(str(a.get("value", a.get("description")))
                                                          for a in p.get("args", []))[:300])
            elif meth == "Runtime.exceptionThrown":
                fails.append("exception: " + json.dumps(p.get("exceptionDetails", {}))[:300])
            elif meth == "Log.entryAdded" and p["entry"].get("level") == "error":
                fails.append("log error: " + p["entry"].get("text", "")[:300])
        print(f"report_browser: {n} rows ({plain} drawn), {len(media)} pictures and videos, screenshot {shot}")
    finally:
        b.close()
        shutil.rmtree(profile, ignore_errors=True)
    for f in fails:
        print("report_browser: " + f)
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
