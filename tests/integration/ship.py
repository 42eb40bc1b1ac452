"""What the release tests (static binary, image, release tarball) share:
finding or building the static binary. They are slow (a second build), so
they run when TJRENDER_SHIP_TESTS=1 or when meson gives them the static
build's binary (meson setup -Dstatic=true), and skip otherwise."""
import os

from common import SOURCE_ROOT, run, skip


def is_static(binary):
    result = run(["ldd", binary])
    return "not a dynamic executable" in result.stdout + result.stderr


def static_binary(given):
    """The static tjrender: `given` when it is one, else (TJRENDER_SHIP_TESTS=1)
    the one scripts/build --static makes; skips the test otherwise."""
    if is_static(given):
        return given
    if os.environ.get("TJRENDER_SHIP_TESTS") != "1":
        skip("not a static build; set TJRENDER_SHIP_TESTS=1 to build one (scripts/build --static)")
    result = run([os.path.join(SOURCE_ROOT, "scripts", "build"), "--static"], timeout=3600)
    if result.returncode != 0:
        raise SystemExit("scripts/build --static failed:\n" + result.stderr[-4000:])
    return os.path.join(SOURCE_ROOT, "build-static", "tjrender")
