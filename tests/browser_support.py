"""Headless Chromium for the browser tests: where it is, how it starts, and when the tests skip.

The tests drive Debian's ``chromium`` with Playwright (``playwright`` from PyPI,
without its own browser download). Without Chromium or Playwright the browser
tests are skipped, except under CI (``CI`` set), where ``.ci/run`` installs
Chromium and a missing browser is a failure.
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
import shutil

import pytest

CHROMIUM = os.environ.get("CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
"""The Chromium executable (``$CHROMIUM``, else ``chromium`` on the PATH), or ``None``."""

ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]
"""Flags for a root user on a machine whose only network is loopback."""


def require_chromium() -> None:
    """Skip the calling test module when Chromium or Playwright is missing (fail under CI).

    Raises:
        RuntimeError: under CI, when either is missing.
    """
    if CHROMIUM and importlib.util.find_spec("playwright") is not None:
        return
    if os.environ.get("CI"):
        raise RuntimeError("CI needs Debian's chromium and the playwright package for the browser tests")
    pytest.skip("headless Chromium or Playwright not installed", allow_module_level=True)


@contextlib.contextmanager
def launched():
    """A headless Chromium browser (Playwright's sync API), closed when the block ends."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            yield browser
        finally:
            browser.close()
