"""Outgoing URLs (webhooks, push endpoints): only http(s), and only public addresses unless allowed."""

from __future__ import annotations

import ipaddress
import socket
import urllib.parse

from domain.core import InvalidCommand


def check_url(url: str, allow_private: bool, allow_loopback: bool = False, what: str = "webhook") -> None:
    """Only http(s) URLs; loopback and private addresses only when allowed (against SSRF): ``allow_private``
    admits every non-public address, ``allow_loopback`` (development) this machine's alone. ``what`` the URL
    is for (``webhook``, ``push endpoint``), as the refusals name it."""
    parsed = urllib.parse.urlsplit(url)
    try:
        port = parsed.port
    except ValueError:  # a port that is not a number from 0 to 65535
        raise InvalidCommand(f"a {what} URL needs a port from 1 to 65535: {url[:200]!r}") from None
    if parsed.scheme not in ("http", "https") or not parsed.hostname:
        raise InvalidCommand(f"a {what} URL must be http(s)://host/..., not {url[:200]!r}")
    if allow_private:
        return
    try:
        infos = socket.getaddrinfo(parsed.hostname, port or (443 if parsed.scheme == "https" else 80))
    except (OSError, UnicodeError):  # no such host, or a name IDNA cannot encode
        raise InvalidCommand(f"cannot resolve the {what}'s host {parsed.hostname!r}") from None
    for info in infos:
        address = ipaddress.ip_address(info[4][0])
        if allow_loopback and address.is_loopback:
            continue
        if not address.is_global:  # private, loopback, link-local, shared (100.64/10), reserved ...
            hint = "" if allow_loopback else " (TAPROOM_WEBHOOK_ALLOW_LOOPBACK=1 admits this machine for development)"
            raise InvalidCommand(f"the {what}'s host {parsed.hostname!r} is not a public address{hint}")
