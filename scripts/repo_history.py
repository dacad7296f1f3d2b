"""Derive a repository's public history figures from a local git snapshot: one CSV row per repository.

Usage: ``python scripts/repo_history.py AS_OF OUT.csv GITDIR [GITDIR ...]`` (AS_OF a date YYYY-MM-DD, the day the
snapshots were taken; each GITDIR a bare or normal clone of a public repository, its name read from
``remote.origin.url`` or given as ``owner/name=GITDIR``). The row records the commit it read (HEAD), so the figures
can be recomputed from the same history. The window ends at AS_OF for every repository, not at its own newest
commit: a repository that stopped (an archived project) must show its silence, not its last busy year.

- ``days_since_commit``: days from HEAD's committer date to AS_OF, counted inclusively (a commit on AS_OF is 1 day
  old: a cost column is inverted by some methods, and a zero would break them);
- ``commits_12m``: commits (merges left out) whose committer date lies in the 365 days up to AS_OF;
- ``authors_12m``: distinct author e-mail addresses (after the repository's .mailmap) of those commits;
- ``top_domain`` / ``top_domain_commits`` / ``top_domain_share_pct``: the e-mail domain with the most of those
  commits among organisation domains, its count and its share of all of them in percent. Personal and anonymising
  domains (users.noreply.github.com, gmail.com, ...) and domains only one address uses (a personal domain) are not
  organisations: their commits count in the total only;
- ``first_commit_date`` and ``age_years``: the oldest root commit's author date and the years from it to AS_OF;
- ``licence_spdx``: the SPDX id of the LICENSE file at HEAD, recognised from its text (empty when not recognised).

Only these derived figures are bundled, never the history itself.
"""

from __future__ import annotations

import csv
import datetime as dt
import subprocess
import sys
from collections import Counter
from pathlib import Path

WINDOW_DAYS = 365
PERSONAL = frozenset(
    {
        "users.noreply.github.com",
        "noreply.github.com",
        "github.com",
        "gmail.com",
        "googlemail.com",
        "outlook.com",
        "hotmail.com",
        "live.com",
        "yahoo.com",
        "icloud.com",
        "me.com",
        "protonmail.com",
        "proton.me",
        "qq.com",
        "yeah.net",
        "163.com",
        "126.com",
        "foxmail.com",
        "sina.com",
        "localhost",
    }
)
COLUMNS = (
    "repository",
    "commit",
    "snapshot_date",
    "window_start",
    "days_since_commit",
    "commits_12m",
    "authors_12m",
    "top_domain",
    "top_domain_commits",
    "top_domain_share_pct",
    "first_commit_date",
    "age_years",
    "licence_spdx",
)
# (SPDX id, phrases that must all occur in the licence text), first match wins
LICENCES = (
    ("Apache-2.0", ("apache license", "version 2.0")),
    ("MIT", ("permission is hereby granted, free of charge",)),
    ("BSD-3-Clause", ("redistribution and use", "neither the name")),
    ("BSD-2-Clause", ("redistribution and use", "this list of conditions")),
)
LICENCE_FILES = ("LICENSE", "LICENSE.txt", "LICENSE.md", "LICENCE", "COPYING")


def git(gitdir: str, *args: str) -> str:
    return subprocess.run(["git", "-C", gitdir, *args], check=True, capture_output=True, text=True).stdout


def licence(gitdir: str) -> str:
    """The SPDX id of the first licence file found at HEAD, or '' when none is recognised."""
    for name in LICENCE_FILES:
        try:
            text = " ".join(git(gitdir, "show", f"HEAD:{name}").lower().split())
        except subprocess.CalledProcessError:
            continue
        return next((spdx for spdx, phrases in LICENCES if all(p in text for p in phrases)), "")
    return ""


def domain(email: str) -> str:
    return email.rsplit("@", 1)[-1].strip().lower() if "@" in email else ""


def row(repository: str, gitdir: str, as_of: dt.date) -> dict[str, str]:
    """The derived figures of one repository at its HEAD, counted back from the end of day `as_of` (UTC)."""
    head, head_time = git(gitdir, "log", "-1", "--format=%H %cI", "HEAD").split()
    newest = dt.datetime.fromisoformat(head_time).astimezone(dt.UTC)
    end = dt.datetime.combine(as_of, dt.time.max, dt.UTC)
    if newest > end:
        raise SystemExit(f"{repository}: HEAD ({newest.date()}) is newer than the snapshot date {as_of}")
    start = end - dt.timedelta(days=WINDOW_DAYS)
    log = git(gitdir, "log", "--no-merges", f"--since={start.isoformat()}", "--format=%cI %aE", "HEAD")
    emails = []
    for line in log.splitlines():
        when, _, email = line.partition(" ")
        if start < dt.datetime.fromisoformat(when).astimezone(dt.UTC) <= end:
            emails.append(email.strip().lower())
    users: dict[str, set[str]] = {}
    for email in emails:
        users.setdefault(domain(email), set()).add(email)
    organisations = Counter(d for d in map(domain, emails) if d and d not in PERSONAL and len(users.get(d, ())) >= 2)
    top, top_commits = organisations.most_common(1)[0] if organisations else ("", 0)
    roots = git(gitdir, "log", "--max-parents=0", "--format=%aI", "HEAD").split()
    first = min(dt.datetime.fromisoformat(t).astimezone(dt.UTC) for t in roots)
    return {
        "repository": repository,
        "commit": head,
        "snapshot_date": as_of.isoformat(),
        "window_start": start.date().isoformat(),
        "days_since_commit": str((as_of - newest.date()).days + 1),
        "commits_12m": str(len(emails)),
        "authors_12m": str(len(set(emails))),
        "top_domain": top,
        "top_domain_commits": str(top_commits),
        "top_domain_share_pct": f"{100 * top_commits / len(emails):.1f}" if emails else "0.0",
        "first_commit_date": first.date().isoformat(),
        "age_years": f"{(end - first).days / 365.25:.2f}",
        "licence_spdx": licence(gitdir),
    }


def name_of(gitdir: str) -> str:
    url = git(gitdir, "config", "--get", "remote.origin.url").strip()
    return "/".join(url.removesuffix(".git").split("/")[-2:])


def main(argv: list[str]) -> int:
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    as_of = dt.date.fromisoformat(argv[0])
    rows = []
    for spec in argv[2:]:
        repository, _, gitdir = spec.rpartition("=") if "=" in spec else (None, "", spec)
        rows.append(row(repository or name_of(gitdir), gitdir, as_of))
    with Path(argv[1]).open("w", encoding="utf-8", newline="") as out:
        writer = csv.DictWriter(out, fieldnames=COLUMNS, lineterminator="\n")
        writer.writeheader()
        writer.writerows(sorted(rows, key=lambda r: r["repository"].lower()))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
