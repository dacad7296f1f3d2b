"""The interface's languages: message catalogs (gettext, managed with Babel), locale-aware dates, and phrases (a
sentence built from a marked template and its fields) that the data keeps in English and a reader gets in either.

The server is shared by every user, so a translation is chosen per call (per session, per report), never installed
globally with ``gettext.install``. Catalogs live in ``selector/locale/<lang>/LC_MESSAGES/messages.po`` and are
compiled to ``.mo`` beside them (``make i18n``); the compiled files are committed, so nothing is built or fetched
when the app starts, and ``tests/test_i18n.py`` fails when a ``.mo`` no longer matches its ``.po``.
"""

from __future__ import annotations

import datetime as dt
import functools
import gettext
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Literal

from babel import Locale, UnknownLocaleError
from babel.dates import format_date as _babel_date

Language = Literal["en", "zh"]
#: The languages the interface speaks, in the order the switch shows them; English is the source language.
LANGUAGES: tuple[Language, ...] = ("en", "zh")
SOURCE_LANGUAGE: Language = "en"
#: What the language switch shows for each language: each in its own script, so a reader finds theirs.
LANGUAGE_NAMES: dict[Language, str] = {"en": "English", "zh": "中文"}
#: Babel's locale for each language: numbers and dates follow these conventions.
BABEL_LOCALES: dict[Language, str] = {"en": "en_US", "zh": "zh_Hans_CN"}
LOCALE_DIR = Path(__file__).parent / "locale"
DOMAIN = "messages"


class LanguageError(ValueError):
    """A language that the interface does not speak (the message lists those it does)."""


def check_language(value: str) -> Language:
    """`value` as a language code, or :class:`LanguageError` naming the codes allowed."""
    if value in LANGUAGES:
        return value  # type: ignore[return-value]
    raise LanguageError(f"language {value!r} is not available; use one of {', '.join(LANGUAGES)}")


def negotiate(preferred: str | None) -> Language:
    """The interface language for a browser's locale (``zh-CN``, ``zh_TW``, ``en-GB``...): Chinese for any Chinese
    locale, else the source language."""
    if not preferred:
        return SOURCE_LANGUAGE
    try:
        locale = Locale.parse(preferred.replace("-", "_"))
    except (ValueError, UnknownLocaleError):
        return SOURCE_LANGUAGE
    return "zh" if locale.language == "zh" else SOURCE_LANGUAGE


@functools.cache
def translations(lang: Language) -> gettext.NullTranslations:
    """The compiled catalog of `lang` (the source language has none: its messages are the msgids)."""
    if lang == SOURCE_LANGUAGE:
        return gettext.NullTranslations()
    return gettext.translation(DOMAIN, localedir=LOCALE_DIR, languages=[lang])


def translator(lang: Language) -> Callable[[str], str]:
    """The function that translates a message into `lang` (``_ = translator(lang)``)."""
    return translations(lang).gettext


def pick(lang: Language, english: str | None, chinese: str | None) -> str:
    """A bilingual field of the knowledge in `lang`, falling back to the other language when one is missing."""
    first, second = (chinese, english) if lang == "zh" else (english, chinese)
    return first or second or ""


def format_date(day: dt.date, lang: Language) -> str:
    """`day` as the locale writes a date in running text (``Dec 2, 2026``, ``2026年12月2日``)."""
    return _babel_date(day, format="medium" if lang == "en" else "long", locale=BABEL_LOCALES[lang])


def N_(message: str) -> str:
    """Mark `message` for the catalogs without translating it here: a constant translated where it is shown."""
    return message


def join_names(items: Sequence[str], *, lang: Language = "en") -> str:
    """Names in running text: ``"A, B and C"``, in Chinese ``"A、B 和 C"``."""
    items = list(items)
    if len(items) < 2:
        return "".join(items)
    if lang == "zh":
        return "、".join(items[:-1]) + " 和 " + items[-1]
    return ", ".join(items[:-1]) + " and " + items[-1]


class Phrase(str):
    """A sentence built from a marked template and its fields, kept so that it can be said in either language.

    A phrase *is* its English text: it is stored, compared, hashed, joined and written to JSON as that text, so the
    source language's output is what an f-string gave. :meth:`in_` (or :func:`stored`) says it in another language:
    the template through the catalog, each field as it is (a name, a number with its unit, an id), or said in the
    same language when the field is a phrase itself. A template the catalog lacks stays English.

    ``Phrase(N_("fits on {where}"), where=Phrase(N_("one {name}"), name="NVIDIA H200"))``
    """

    __slots__ = ("chinese", "fields", "template")
    template: str
    fields: tuple[tuple[str, str], ...]
    chinese: str | None  # a twin's own Chinese (a knowledge field), None for a catalog template

    def __new__(cls, template: str, /, **fields: str) -> Phrase:
        phrase = super().__new__(cls, template.format(**fields) if fields else template)
        object.__setattr__(phrase, "template", template)
        object.__setattr__(phrase, "fields", tuple(fields.items()))
        object.__setattr__(phrase, "chinese", None)
        return phrase

    @classmethod
    def twin(cls, english: str, chinese: str | None) -> Phrase:
        """A value the knowledge keeps in both languages (a criterion's name): said from its own fields, not the
        catalog (a missing Chinese keeps the English)."""
        phrase = cls(english)
        object.__setattr__(phrase, "chinese", chinese or english)
        return phrase

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"a Phrase is immutable; {name} cannot be set")

    def __reduce__(self) -> tuple:
        # pickled by its parts (Streamlit's caches, deep copies): rebuilding from the English text would lose them
        return (_rebuilt, (self.template, self.fields, self.chinese))

    def in_(self, lang: Language) -> str:
        """The phrase in `lang`: the translated template with each field in `lang` too (in English, itself)."""
        if lang == SOURCE_LANGUAGE:
            return self
        if self.chinese is not None:
            return self.chinese
        template = translator(lang)(self.template)
        return template.format(**{k: said_in(v, lang) for k, v in self.fields}) if self.fields else template


def _rebuilt(template: str, fields: tuple[tuple[str, str], ...], chinese: str | None) -> Phrase:
    phrase = Phrase(template, **dict(fields))
    object.__setattr__(phrase, "chinese", chinese)
    return phrase


#: How two parts of one note are joined (an imputed cell's reason and how it was filled, a list of runs).
SEMICOLON = N_("{first}; {second}")


def joined(parts: Sequence[str], template: str = SEMICOLON) -> str:
    """`parts` joined by `template` (``"a; b; c"``), a phrase that joins in the reader's language."""
    if not parts:
        return ""
    result = parts[0]
    for part in parts[1:]:
        result = Phrase(template, first=result, second=part)
    return result


def said_in(text: str, lang: Language) -> str:
    """A :class:`Phrase` in `lang`; any other text (a name, a number, an id) as it is."""
    return text.in_(lang) if isinstance(text, Phrase) else text


def stored(text: str, lang: Language) -> str:
    """A text the data keeps in English in `lang`: a :class:`Phrase` said in `lang`, a message the catalog marks
    (an exclusion's reason, an imputed cell's note) translated, any other text as it is (gettext would answer the
    catalog's header for "")."""
    if isinstance(text, Phrase):
        return text.in_(lang)
    return translator(lang)(text) if text else text
