"""A signed-in device as its person would name it, from the User-Agent it signed in with.

Only this short name is kept with a session (never the whole User-Agent): enough for the account's list of
where it is signed in to be recognisable, and nothing to fingerprint anyone by.

>>> device_of("Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
...           "Chrome/131.0.0.0 Mobile Safari/537.36")
'Chrome on Android'
>>> device_of("Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 "
...           "(KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1")
'Safari on iOS'
>>> device_of("Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) "
...           "Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0")
'Edge on Windows'
>>> device_of("python-httpx/0.28.1"), device_of(None)
('python-httpx', 'an unknown device')
"""

from __future__ import annotations

import re

__all__ = ["device_of"]

_BROWSERS = (("Edg/", "Edge"), ("OPR/", "Opera"), ("Firefox/", "Firefox"), ("FxiOS/", "Firefox"),
             ("CriOS/", "Chrome"), ("Chrome/", "Chrome"), ("Safari/", "Safari"))
"""Each browser's mark in a User-Agent, those that also name others' marks first (Edge says Chrome too)."""
_SYSTEMS = (("Android", "Android"), ("iPhone", "iOS"), ("iPad", "iOS"), ("CrOS", "ChromeOS"),
            ("Windows", "Windows"), ("Mac OS X", "macOS"), ("Linux", "Linux"))
"""Each system's mark, Android before Linux and the iPhone before the Mac (each says the other too)."""
_PROGRAM = re.compile(r"[A-Za-z][A-Za-z0-9._-]{0,39}")
"""A program's own name, as the first word of its User-Agent (``python-httpx/0.28``)."""


def device_of(user_agent: str | None) -> str:
    """The browser and system a User-Agent names ("Firefox on Linux"), else the program's own name, else
    "an unknown device"."""
    agent = user_agent or ""
    browser = next((name for mark, name in _BROWSERS if mark in agent), None)
    system = next((name for mark, name in _SYSTEMS if mark in agent), None)
    if browser is not None:
        return f"{browser} on {system}" if system else browser
    program = _PROGRAM.match(agent)
    return program.group() if program else "an unknown device"
