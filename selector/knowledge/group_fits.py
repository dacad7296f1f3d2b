"""What a group answers (the schema shared by the knowledge and the requirement-first start,
selector.decision.requirement):
what is being chosen, for which tasks, where and, for software, on which platforms."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import AfterValidator, Field

from selector.knowledge.fields import Record

Choosing = Literal[
    "accelerator", "training-framework", "inference-engine", "llm-serving-engine", "model-server", "on-device-runtime"
]
Task = Literal["train", "serve-llm", "serve-vision", "generate-images", "run-on-device"]
Where = Literal["cloud", "datacenter", "edge", "device", "client"]
FitsPlatform = Literal["linux", "windows", "macos", "android", "ios", "embedded-linux"]


def _each_once(values: tuple[str, ...]) -> tuple[str, ...]:
    if len(set(values)) != len(values):
        raise ValueError("list each value once")
    return values


class Fits(Record):
    """What a group answers: what is being chosen, for which tasks, where and (for software) on which platforms."""

    choosing: Choosing
    tasks: Annotated[tuple[Task, ...], Field(min_length=1), AfterValidator(_each_once)]
    where: Annotated[tuple[Where, ...], Field(min_length=1), AfterValidator(_each_once)]
    platforms: Annotated[tuple[FitsPlatform, ...], AfterValidator(_each_once)] = ()
