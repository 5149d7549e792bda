"""What a notification says (e-mail, Web Push, digest), in the player's language (issue 38).

Every sentence is one msgid with named placeholders (``%(game)s``), translated whole: word order differs
between languages, so nothing here is glued from translated pieces. Counts take ``ngettext`` (the locale's
plural rules) and numbers and dates Babel's formats. The German is in ``services/locale/de/LC_MESSAGES``.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from babel.dates import format_date

from services.infrastructure.i18n import Translator, format_number, normalize, translator


def _days(t: Translator, seconds: float, locale: str | None) -> str:
    days = max(1, round(seconds / 86400))
    return t.ngettext("%(n)s day", "%(n)s days", days) % {"n": format_number(days, locale)}


def describe(kind: str, data: dict[str, Any], locale: str | None = None) -> tuple[str, str]:
    """(title, one line) of a message, from the fields every channel shows (nothing private)."""
    t = translator(locale)
    game = data.get("game_id", "")
    if kind == "your_turn":
        return t.gettext("Your turn"), t.gettext("It is your turn in game %(game)s.") % {"game": game}
    if kind == "deadline_soon":
        hours = data.get("hours")
        count = hours if isinstance(hours, int | float) else 0
        return t.gettext("Your deadline is near"), t.ngettext(
            "Your turn in game %(game)s times out in %(hours)s hour.",
            "Your turn in game %(game)s times out in %(hours)s hours.", int(count) if count == int(count) else 2,
        ) % {"game": game, "hours": format_number(count, locale)}
    if kind == "invited":
        return t.gettext("You are invited"), t.gettext(
            "You are invited to seat %(seat)s of a %(title)s game (%(game)s).") % {
            "seat": data.get("seat"), "title": data.get("game", "Taproom"), "game": game}
    if kind == "game_over":
        return t.gettext("Game over"), _game_over(t, data, locale)
    leaving = _leaving_words(t, kind, data, locale)
    if leaving is not None:
        return leaving
    return kind.replace("_", " ").capitalize(), f"Game {game}: {kind.replace('_', ' ')}."


def _game_over(t: Translator, data: dict[str, Any], locale: str | None) -> str:
    game = data.get("game_id", "")
    place = data.get("place")
    totals = ", ".join(t.gettext("seat %(seat)s: %(total)s") % {
        "seat": s["seat"], "total": format_number(s["total"], locale)} for s in data.get("scores", []))
    values = {"game": game, "place": place, "totals": totals}
    if place and totals:
        return t.gettext("Game %(game)s has ended: you placed %(place)s (%(totals)s).") % values
    if place:
        return t.gettext("Game %(game)s has ended: you placed %(place)s.") % values
    if totals:
        return t.gettext("Game %(game)s has ended (%(totals)s).") % values
    return t.gettext("Game %(game)s has ended.") % values


def _leaving_words(t: Translator, kind: str, data: dict[str, Any], locale: str | None) -> tuple[str, str] | None:
    """The words of the messages about leaving a game (an absent seat, a resignation, an idle end)."""
    values = {"game": data.get("game_id", ""), "name": data.get("name") or t.gettext("A player"),
              "idle": _days(t, data.get("idle_seconds", 0), locale),
              "within": _days(t, data.get("vote_in_seconds", 0), locale)}
    if kind == "absence_warning":
        return t.gettext("Your game is waiting for you"), t.gettext(
            "It has been your turn in game %(game)s for %(idle)s. Play a move within %(within)s, or the other "
            "players may end the game (you placed last) or give your seat to a bot.") % values
    if kind == "absent":
        return t.gettext("The table may now vote about your seat"), t.gettext(
            "You have not moved in game %(game)s for %(idle)s: the other players may now vote to end the game "
            "(you placed last) or to give your seat to a bot. Play a move to stop the vote.") % values
    if kind == "absent_vote":
        return t.gettext("A player is away"), t.gettext(
            "%(name)s has not moved in game %(game)s for %(idle)s. You may vote to end the game or to give their "
            "seat to a bot.") % values
    if kind == "left":
        resigned = data.get("how") == "resigned"
        title = t.gettext("%(name)s resigned") if resigned else t.gettext("%(name)s left the game")
        if data.get("bot"):
            line = t.gettext("%(name)s resigned in game %(game)s; a bot plays their seat to the end.") if resigned \
                else t.gettext("%(name)s left the game in game %(game)s; a bot plays their seat to the end.")
        else:
            line = t.gettext("%(name)s resigned in game %(game)s; the game is over.") if resigned \
                else t.gettext("%(name)s left the game in game %(game)s; the game is over.")
        return title % values, line % values
    return None


def subject(title: str, locale: str | None, in_game: bool) -> str:
    """An e-mail's subject: "Taproom: your turn" (the title, as a subject reads, after the service's name)."""
    if not in_game:
        return title
    shown = title.lower() if normalize(locale) == "en" else title  # German nouns keep their capitals
    return translator(locale).gettext("Taproom: %(title)s") % {"title": shown}


def open_game(link: str, locale: str | None) -> str:
    return translator(locale).gettext("Open the game: %(link)s") % {"link": link}


def stop_these(link: str, locale: str | None) -> str:
    return translator(locale).gettext("Stop these e-mails: %(link)s") % {"link": link}


def digest_subject(count: int, when: datetime, locale: str | None) -> str:
    """"Taproom: your daily digest of 2 December 2026 (2)": the day as the locale writes dates (Babel's CLDR)."""
    day = format_date(when, format="long", locale=normalize(locale))
    return translator(locale).gettext("Taproom: your daily digest of %(day)s (%(n)s)") % {
        "n": format_number(count, locale), "day": day}


def digest_intro(locale: str | None) -> str:
    return translator(locale).gettext("Since the last digest:")


def verification(link: str, locale: str | None) -> tuple[str, str]:
    t = translator(locale)
    return t.gettext("Taproom: confirm your e-mail address"), t.gettext(
        "Follow this link to receive Taproom notifications at this address:\n%(link)s\n\n"
        "If you did not ask for this, ignore this message.") % {"link": link}
