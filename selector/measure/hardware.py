"""Device names as benchmark tools print them -> entity ids of the knowledge, through one explicit table.

A name no pattern matches, or one that matches an entity the knowledge does not define, is reported; nothing is
guessed. Patterns are tried in order, so a more specific name (``GH200``) comes before a shorter one (``H200``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping

#: (pattern, entity id). Matched case-insensitively against the whole device string.
ALIASES: tuple[tuple[str, str], ...] = (
    (r"\bGH200\b", "gh200"),
    (r"\bGB200\b", "gb200"),
    (r"\bH200\b", "h200"),
    # The PCIe card (350 W, 2.0 TB/s) is not the SXM part (700 W, 3.35 TB/s) the h100 entity is (issue 32).
    (r"\bH100\s*PCIe\b", "h100-pcie"),
    (r"\bH100\b", "h100"),
    (r"\bH20\b", "h20"),
    (r"\bB200\b", "b200"),
    (r"\bA100\b", "a100"),
    (r"\bV100\b", "v100"),
    (r"\bL40S\b", "l40s"),
    (r"\bL4\b", "l4"),
    (r"\bMI355X\b", "mi355x"),
    (r"\bMI325X\b", "mi325x"),
    (r"\bMI300X\b", "mi300x"),
    (r"\bGaudi\s?3\b", "gaudi3"),
    (r"\bJetson\b.*\bOrin\b|\bOrin\b", "jetson-orin"),
    (r"\bAscend\s?910B", "ascend-910b"),
    (r"\bXeon\b", "intel-xeon"),
    (r"\bApple M3 Max\b", "apple-m3-max"),
)


def match(device: str) -> str | None:
    """The entity id the table gives `device`, or None when no pattern matches."""
    for pattern, entity in ALIASES:
        if re.search(pattern, device, re.IGNORECASE):
            return entity
    return None


def resolve(devices: tuple[str, ...], entities: Mapping[str, object]) -> tuple[str | None, str]:
    """The entity of the first device the table maps to a defined entity, or None and why not.

    Parameters
    ----------
    devices
        Device names the file states.
    entities
        The knowledge's entities by id.

    Returns
    -------
    tuple
        (entity id or None, a sentence saying how it was found or why it was not).
    """
    if not devices:
        return None, "the file does not name the hardware it ran on"
    for device in devices:
        entity = match(device)
        if entity and entity in entities:
            return entity, f"detected from the device name `{device}`"
    named = ", ".join(f"`{d}`" for d in devices)
    known = [match(d) for d in devices if match(d)]
    if known:
        return None, f"the file names {named} (entity `{known[0]}`), which the knowledge does not define"
    return None, f"the file names {named}, which no entity of the knowledge matches"
