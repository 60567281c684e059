"""What the parser has read so far: the time a sentence is about, and what a message said."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class When:
    date: str | None = None
    meal: str | None = None
    last_night: bool = False


@dataclass
class Reading:
    """What one message said, collected before it becomes intents."""

    entries: list  # (intent name, data) in the order the user said them
    measurements: list  # merged into one log_measurement
    errors: list  # things understood but refused ("100 calories of almonds")
    left_out: list  # parts not understood at all
    notes: list = field(default_factory=list)  # what was left out on purpose (someone else's)
    left_when: dict = field(default_factory=dict)  # id of a left-out clause -> its When
    tentative: list = field(default_factory=list)  # data of food read on a hunch
    asked: bool = False
    social: str | None = None
