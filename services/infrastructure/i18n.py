"""The server's translations (issue 38): Babel gettext catalogs, locale negotiation, dates and numbers.

The English text is the msgid. Catalogs live in ``services/locale/<locale>/LC_MESSAGES/messages.po``; they are
read and compiled in memory the first time a locale is asked for (no ``.mo`` files to keep in step), so a third
language is one more folder (``make i18n-extract`` then ``pybabel init -l xx``) and one line in the web client's
``static/i18n/index.json``. A message missing from a catalog reads in English.

A caller's locale: the player's own setting when there is one (e-mails and pushes always follow it), else the
best match of the request's ``Accept-Language`` among the offered locales, else English.
"""

from __future__ import annotations

import io
from datetime import datetime
from functools import lru_cache
from pathlib import Path
from typing import Protocol

from babel import Locale
from babel.dates import format_datetime
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_decimal
from babel.support import NullTranslations, Translations

LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"
DOMAIN = "messages"
SOURCE = "en"
"""The language of the msgids: always offered, needs no catalog."""


class Translator(Protocol):
    def gettext(self, message: str) -> str: ...

    def ngettext(self, singular: str, plural: str, n: int) -> str: ...


@lru_cache(maxsize=1)
def available_locales() -> tuple[str, ...]:
    """English and every locale with a catalog, in a stable order (read once: the catalogs ship with the code)."""
    found = sorted(p.parent.parent.name for p in LOCALE_DIR.glob(f"*/LC_MESSAGES/{DOMAIN}.po"))
    return (SOURCE, *[code for code in found if code != SOURCE])


def catalog_path(locale: str) -> Path:
    return LOCALE_DIR / locale / "LC_MESSAGES" / f"{DOMAIN}.po"


@lru_cache(maxsize=16)
def translator(locale: str | None) -> Translator:
    """gettext/ngettext for ``locale`` (English, or a locale without a catalog: the msgids as they are).
    Fuzzy entries are left out, as gettext does: a guess is not shown to players."""
    code = normalize(locale)
    path = catalog_path(code)
    if code == SOURCE or not path.is_file():
        return NullTranslations()
    with path.open("rb") as po:
        catalog = read_po(po, locale=code, domain=DOMAIN)
    compiled = io.BytesIO()
    write_mo(compiled, catalog, use_fuzzy=False)
    compiled.seek(0)
    return Translations(compiled, domain=DOMAIN)


def normalize(locale: str | None) -> str:
    """An offered locale for a tag (``de-AT`` and ``de_DE`` are ``de``), English when none fits."""
    if not locale:
        return SOURCE
    offered = available_locales()
    tag = locale.replace("_", "-").lower()
    if tag in offered:
        return tag
    base = tag.split("-")[0]
    return base if base in offered else SOURCE


def parse_accept_language(header: str | None) -> list[str]:
    """The tags of an ``Accept-Language`` header, most wanted first (RFC 9110's q-values; q=0 is "not this")."""
    ranked: list[tuple[float, int, str]] = []
    for position, part in enumerate((header or "").split(",")):
        tag, _, params = part.strip().partition(";")
        tag = tag.strip()
        if not tag or tag == "*":
            continue
        q = 1.0
        for param in params.split(";"):
            name, _, value = param.strip().partition("=")
            if name.strip().lower() == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        if q > 0:
            ranked.append((-q, position, tag))
    return [tag for _, _, tag in sorted(ranked)]


@lru_cache(maxsize=256)
def negotiate(accept_language: str | None, setting: str | None = None) -> str:
    """The locale to answer in: the player's setting, else the header's best offered match, else English."""
    if setting and normalize(setting) == setting:
        return setting
    offered = available_locales()
    for tag in parse_accept_language(accept_language):
        lower = tag.replace("_", "-").lower()
        for candidate in (lower, lower.split("-")[0]):
            if candidate in offered:
                return candidate
    return SOURCE


def format_when(moment: datetime, locale: str | None, fmt: str = "medium") -> str:
    """A date and time as the locale writes it (Babel's CLDR data): ``12.03.2026, 14:05:00`` in German."""
    return format_datetime(moment, format=fmt, locale=Locale.parse(normalize(locale)), tzinfo=moment.tzinfo)


def format_number(number: float, locale: str | None) -> str:
    return format_decimal(number, locale=Locale.parse(normalize(locale)))
