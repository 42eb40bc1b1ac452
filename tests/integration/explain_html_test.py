#!/usr/bin/env python3
"""The `tjrender explain --format html` page in a real browser: headless
Chromium driven through chromedriver's WebDriver HTTP API (stdlib urllib
only). A TrainJob whose runtimePatches entry adds a node selector is
explained; the test clicks lines, reads the chain panel, searches, follows a
location link to the marked input line, checks that the page fetched
nothing, and saves a screenshot ($TJRENDER_ARTIFACTS_DIR, else
build/test-artifacts/explain-page.png). Skips (77) without Chromium and
chromedriver when apt-get cannot install them."""
import base64
import json
import os
import shutil
import socket
import subprocess
import time
import urllib.error
import urllib.request

from common import SOURCE_ROOT, TORCH_RUNTIME, Checks, run, skip, temp_dir, tjrender

CHROMEDRIVER = "/usr/bin/chromedriver"
CHROMIUM = "/usr/bin/chromium"
ELEMENT = "element-6066-11e4-a52e-4f735466cecf"  # the W3C WebDriver element key

TRAINJOB_FILE = "trainjobs/patched.yaml"
TRAINJOB = """apiVersion: trainer.kubeflow.org/v1alpha1
kind: TrainJob
metadata:
  name: patched
  namespace: ml-team
spec:
  runtimeRef:
    name: torch-distributed
  trainer:
    numNodes: 2
    image: pytorch/pytorch:2.13.0-cuda13.0-cudnn9-runtime
  runtimePatches:
    - manager: platform.example.com/gpu-scheduler
      trainingRuntimeSpec:
        template:
          spec:
            replicatedJobs:
              - name: node
                template:
                  spec:
                    template:
                      spec:
                        nodeSelector:
                          accelerator: nvidia-h100
"""
ACCELERATOR_LINE = TRAINJOB.splitlines().index("                          accelerator: nvidia-h100") + 1
POD_SPEC = "spec.replicatedJobs[name=node].template.spec.template.spec"
ACCELERATOR = POD_SPEC + ".nodeSelector.accelerator"
IMAGE = POD_SPEC + ".containers[name=node].image"
PATCH_LAYER = "runtimePatches[platform.example.com/gpu-scheduler]"


def ensure_browser():
    if os.path.exists(CHROMEDRIVER) and os.path.exists(CHROMIUM):
        return
    if shutil.which("apt-get") is None or os.geteuid() != 0:
        skip("chromium and chromium-driver are not installed, and apt-get cannot install them here")
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    try:  # within meson's 300 s for the test
        installed = run(["apt-get", "install", "-y", "chromium", "chromium-driver"], env=env, timeout=240)
    except subprocess.TimeoutExpired:
        skip("apt-get install chromium chromium-driver took over 240 s")
    if installed.returncode != 0 or not os.path.exists(CHROMEDRIVER):
        skip("apt-get install chromium chromium-driver failed:\n" + installed.stderr[-2000:])


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class WebDriver:
    """The few W3C WebDriver commands the test needs, over plain HTTP."""

    def __init__(self, port):
        self.base = f"http://127.0.0.1:{port}"
        self.session = None

    def call(self, method, path, body=None):
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base + path, data=data, method=method,
                                         headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=60) as response:
                return json.load(response)["value"]
        except urllib.error.HTTPError as error:
            raise RuntimeError(f"{method} {path}: {error.code} {error.read().decode(errors='replace')}")

    def wait_ready(self):
        deadline = time.time() + 30
        while time.time() < deadline:
            try:
                if self.call("GET", "/status").get("ready"):
                    return
            except (OSError, RuntimeError):
                pass
            time.sleep(0.2)
        raise RuntimeError("chromedriver did not become ready in 30 s")

    def start(self):
        options = {"binary": CHROMIUM,
                   "args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1400,1000"]}
        value = self.call("POST", "/session", {"capabilities": {"alwaysMatch": {
            "browserName": "chrome", "goog:chromeOptions": options}}})
        self.session = value["sessionId"]

    def quit(self):
        if self.session:
            try:
                self.call("DELETE", f"/session/{self.session}")
            except (OSError, RuntimeError):
                pass

    def s(self, path):
        return f"/session/{self.session}{path}"

    def open(self, url):
        self.call("POST", self.s("/url"), {"url": url})

    def find(self, css):
        return self.call("POST", self.s("/element"), {"using": "css selector", "value": css})[ELEMENT]

    def find_all(self, css):
        found = self.call("POST", self.s("/elements"), {"using": "css selector", "value": css})
        return [e[ELEMENT] for e in found]

    def click(self, element):
        self.call("POST", self.s(f"/element/{element}/click"), {})

    def text(self, element):
        return self.call("GET", self.s(f"/element/{element}/text"))

    def type(self, element, text):
        self.call("POST", self.s(f"/element/{element}/value"), {"text": text})

    def script(self, source, *args):
        return self.call("POST", self.s("/execute/sync"), {"script": source, "args": list(args)})

    def screenshot(self):
        return base64.b64decode(self.call("GET", self.s("/screenshot")))


def css_path(path):
    """A [data-path="..."] selector for a field path."""
    return '.line[data-path="' + path.replace("\\", "\\\\").replace('"', '\\"') + '"]'


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def make_repo(root):
    write(os.path.join(root, ".tjrender.yaml"), "target: trainer-v2.3\n")
    write(os.path.join(root, "runtimes", "torch.yaml"), TORCH_RUNTIME)
    write(os.path.join(root, TRAINJOB_FILE), TRAINJOB)


def artifact_path():
    folder = os.environ.get("TJRENDER_ARTIFACTS_DIR") or os.path.join(SOURCE_ROOT, "build", "test-artifacts")
    os.makedirs(folder, exist_ok=True)
    return os.path.join(folder, "explain-page.png")


def check_order(checks, driver, explained_json):
    """A list item's first line shows the item's order (why it sits there)."""
    document = json.loads(explained_json)
    env = POD_SPEC + ".containers[name=node].env[name=PET_NNODES]"
    jobset = [o for o in document["objects"] if o["kind"] == "JobSet"]
    fields = [f for f in jobset[0]["fields"] if f["path"] == env] if jobset else []
    checks.expect(len(fields) == 1 and fields[0].get("order"), "the JSON gives the torch env item an order",
                  repr(fields))
    if not fields or not fields[0].get("order"):
        return
    driver.click(driver.find('.line[data-item="' + env + '"]'))
    chain = driver.text(driver.find("#chain"))
    checks.expect("The list item " + env in chain and "Order: " + fields[0]["order"] in chain,
                  "the item's first line shows the item's chain and order", chain)


def check_page(checks, driver, page, explained_json):
    driver.open("file://" + page)
    checks.expect(driver.script("return document.querySelectorAll('.line').length;") > 20,
                  "the page renders the object's lines")
    checks.expect(driver.script("return performance.getEntriesByType('resource').length;") == 0,
                  "the page fetched nothing (no script, stylesheet, font or image)")
    legend = driver.text(driver.find("#legend"))
    checks.expect("runtimePatch" in legend and PATCH_LAYER in legend,
                  "the legend names the layer kinds and the patch layer", legend)

    # The patch's node selector: its chain names the patch and its line.
    driver.click(driver.find(css_path(ACCELERATOR)))
    chain = driver.text(driver.find("#chain"))
    checks.expect(ACCELERATOR in chain and PATCH_LAYER in chain and "nvidia-h100" in chain,
                  "the chain of the accelerator names the patch and its value", chain)
    checks.expect(f"{TRAINJOB_FILE}:{ACCELERATOR_LINE}:" in chain,
                  f"the chain locates the value at {TRAINJOB_FILE}:{ACCELERATOR_LINE}", chain)
    classes = driver.script("return document.querySelector(arguments[0]).className;", css_path(ACCELERATOR))
    checks.expect("k-runtimePatch" in classes, "the accelerator line is coloured as a runtime patch", classes)

    # A location link opens the input file with the line marked, in-page.
    links = driver.find_all("#chain a.src")
    target = [link for link in links if driver.text(link).startswith(f"{TRAINJOB_FILE}:{ACCELERATOR_LINE}:")]
    checks.expect(bool(target), "the chain links the patch's location")
    if target:
        url_before = driver.script("return location.href;")
        driver.click(target[0])
        marked = driver.script("var m = document.querySelector('#source .marked');"
                               "return m ? m.textContent : document.getElementById('source').textContent;")
        checks.expect(marked == TRAINJOB.splitlines()[ACCELERATOR_LINE - 1],
                      "the input file opens with the accelerator line marked", repr(marked))
        checks.expect(driver.script("return location.href;") == url_before, "the link does not navigate")

    # The image: the runtime wrote it, spec.trainer.image replaced it.
    driver.click(driver.find(css_path(IMAGE)))
    chain = driver.text(driver.find("#chain"))
    checks.expect("pytorch/pytorch:2.7.1-cuda12.8-cudnn9-runtime" in chain
                  and "pytorch/pytorch:2.13.0-cuda13.0-cudnn9-runtime" in chain,
                  "the image's chain shows the runtime's value and the TrainJob's", chain)

    # The search box keeps the lines holding the text and hides the rest.
    driver.type(driver.find("#search"), "nvidia-h100")
    shown = driver.script("return Array.from(document.querySelectorAll('.line:not(.filtered)'))"
                          ".map(function (e) { return e.textContent; });")
    checks.expect(len(shown) >= 1 and all("nvidia-h100" in text for text in shown),
                  "the search shows only the lines holding the text", repr(shown))
    count = driver.text(driver.find("#count"))
    checks.expect(count == f"{len(shown)} matching line" + ("" if len(shown) == 1 else "s"),
                  "the search counts its matches", count)
    driver.type(driver.find("#search"), "\ue00c")  # Escape clears the search
    checks.expect(driver.script("return document.querySelectorAll('.line.filtered').length;") == 0,
                  "Escape clears the search")
    check_order(checks, driver, explained_json)

    # The screenshot: the accelerator's chain and its line in the TrainJob.
    driver.click(driver.find(css_path(ACCELERATOR)))
    links = driver.find_all("#chain a.src")
    if links:
        driver.click(links[-1])

    png = artifact_path()
    with open(png, "wb") as f:
        f.write(driver.screenshot())
    print("screenshot: " + png)


def main():
    ensure_browser()
    checks = Checks()
    work = temp_dir("tjrender-explain-html-")
    driver_process = None
    driver = None
    try:
        repo = os.path.join(work, "repo")
        make_repo(repo)
        explained = run([tjrender(), "explain", "--format", "html", "ml-team/patched", "."], cwd=repo)
        checks.expect(explained.returncode == 0, "explain --format html exits 0", explained.stderr)
        if explained.returncode != 0:
            checks.done()
        as_json = run([tjrender(), "explain", "--format", "json", "ml-team/patched", "."], cwd=repo)
        checks.expect(as_json.returncode == 0, "explain --format json exits 0", as_json.stderr)
        page = os.path.join(work, "explain.html")
        with open(page, "w") as f:
            f.write(explained.stdout)

        port = free_port()
        driver_process = subprocess.Popen([CHROMEDRIVER, f"--port={port}"], stdout=subprocess.DEVNULL,
                                          stderr=subprocess.DEVNULL)
        driver = WebDriver(port)
        driver.wait_ready()
        driver.start()
        check_page(checks, driver, page, as_json.stdout)
    finally:
        if driver:
            driver.quit()
        if driver_process:
            driver_process.terminate()
            driver_process.wait(timeout=30)
        shutil.rmtree(work, ignore_errors=True)
    checks.done()


if __name__ == "__main__":
    main()
