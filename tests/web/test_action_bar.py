"""Move confirmation is a setting of the device: on by default on a touch screen, off with a mouse, switched on
the settings page (signed in or not) as in the game's action bar, and kept in this browser."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.web.conftest import WebServer

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("touch", [False, True], ids=["mouse", "touch"])
def test_the_settings_page_switches_move_confirmation_for_this_device(browser: Any, web_server: WebServer,
                                                                      touch: bool):
    context = browser.new_context(base_url=web_server.url, viewport={"width": 390, "height": 844} if touch else
                                  {"width": 1280, "height": 800}, has_touch=touch, is_mobile=touch)
    try:
        page = context.new_page()
        page.goto("/#/settings")
        switch = page.locator("#confirm-moves")
        expect(switch).to_be_checked(checked=touch)  # the default follows the pointer
        assert page.evaluate("localStorage.getItem('taproom.confirmMoves')") is None
        switch.set_checked(not touch)
        assert page.evaluate("localStorage.getItem('taproom.confirmMoves')") == ("0" if touch else "1")
        page.reload()
        expect(page.locator("#confirm-moves")).to_be_checked(checked=not touch)  # kept in this browser
    finally:
        context.close()
