"""The compact ``key=value,key=value`` form, read here for every reader of it: preferences in a link or on the command
line, the workload, the requirement and swing ratings."""

from __future__ import annotations

from collections.abc import Callable

from selector.i18n import N_, Phrase

#: What a pair's key is called in a refusal unless the caller names it ("field", "criterion").
KEY = Phrase(N_("key"))


def parse_pairs(
    text: str | None,
    what: str,
    error: Callable[[str], Exception],
    *,
    form: str = "key=value",
    noun: str = KEY,
    strict: bool = False,
    key: Callable[[str], str] = str.strip,
) -> dict[str, str]:
    """Read ``a=1,b=2`` into a dict of stripped texts, in the order given; empty parts are skipped.

    Parameters
    ----------
    text
        The pairs, comma-separated (None reads as none).
    what
        What the text is, to open each message ("answers", "workload").
    error
        Makes the exception raised from its message (the caller's error class).
    form, noun
        How a pair and its key are named in the messages ("field=value (e.g. ...)", "field").
    strict
        True: a key given twice is refused whatever its values. False: a key repeated with the same value is read
        once, with another value refused (the last one silently winning would rank something not asked for).
    key
        The key as it is read and compared (e.g. lower-cased); a pair whose key reads empty is malformed.

    Raises
    ------
    Exception
        ``error(message)``: a part without ``=``, an empty key or value, or a key given twice.
    """
    pairs: dict[str, str] = {}
    for part in (text or "").split(","):
        part = part.strip()
        if not part:
            continue
        name, sep, value = part.partition("=")
        name, value = key(name.strip()), value.strip()
        if not sep or not name or not value:
            raise error(Phrase(N_("{what}: `{part}` is not of the form {form}"), what=what, part=part, form=form))
        if name in pairs and (strict or pairs[name] != value):
            raise error(
                Phrase(
                    N_("{what}: `{name}` is given twice (`{first}` and `{second}`); give each {noun} once"),
                    what=what,
                    name=name,
                    first=pairs[name],
                    second=value,
                    noun=noun,
                )
            )
        pairs[name] = value
    return pairs
