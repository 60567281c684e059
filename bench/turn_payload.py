"""Tokens sent per turn (system prompt + tools): auto mode against sending everything.

For a fixed set of messages, classify each as a turn would (keywords, else the offline model's
guess standing in for the LLM classifier), compose the system prompt and the active tools, and count
tokens with litellm's bundled tokenizer. "everything" is the full profile with every category's
sub-prompt and all 35 tools plus the escalation tool: what a system without classification sends.

    .venv/bin/python bench/turn_payload.py [--model gpt-4o]
"""

import argparse
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from chat.management.commands.sparky_prompt import turn_payload  # noqa: E402
from chat.tools.base import CATEGORIES  # noqa: E402

LOGGING = [
    "2 eggs and toast for breakfast",
    "had a chicken caesar salad for lunch",
    "200g greek yogurt with honey",
    "ran 5 km in 28 min",
    "walked 45 minutes",
    "did 3 sets of squats and bench press",
    "weight 81.4 kg",
    "9,500 steps today",
    "3 glasses of water",
    "waist 84 cm, hips 98 cm",
    "slept 7.5 hours",
    "yesterday I had pizza for dinner",
]
OTHER = [
    "how many calories do I have left today?",
    "summarize my week",
    "set my protein goal to 140 g",
    "any tips to eat more fiber?",
    "hello sparky!",
    "switch my units to pounds",
]


def everything(profile: str, model: str) -> int:
    row = turn_payload(message="x", profile=profile, manual=list(CATEGORIES), model=model)
    # manual mode omits the escalation tool; count it too, as the auto surface always has it
    from aiservices.llm import count_tokens
    from chat.tools import enable_tool

    return (
        row["prompt_tokens"]
        + row["tool_tokens"]
        + count_tokens(model, text=str(enable_tool().spec()))
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default="gpt-4o", help="tokenizer to count with")
    args = parser.parse_args()

    for profile in ("full", "core"):
        total_all = everything(profile, args.model)
        print(f"\nprofile {profile}: everything = {total_all} tokens per turn")
        print(
            f"{'message':<42} {'phase':<10} {'categories':<22} {'tools':>5} {'tokens':>7} "
            f"{'share':>6}"
        )
        shares = {"logging": [], "other": []}
        phases = []
        for kind, messages in (("logging", LOGGING), ("other", OTHER)):
            for message in messages:
                row = turn_payload(message=message, profile=profile, model=args.model)
                tokens = row["prompt_tokens"] + row["tool_tokens"]
                share = tokens / total_all
                shares[kind].append(share)
                phases.append(row["phase"])
                print(
                    f"{message[:42]:<42} {row['phase']:<10} {','.join(row['categories'])[:22]:<22} "
                    f"{len(row['tools']):>5} {tokens:>7} {share:>6.0%}"
                )
        for kind, values in shares.items():
            print(
                f"  {kind}: mean {sum(values) / len(values):.1%} of everything, "
                f"max {max(values):.1%}"
            )
        keyword_share = phases.count("keywords") / len(phases)
        print(
            f"  decided by keywords: {phases.count('keywords')}/{len(phases)} "
            f"({keyword_share:.0%}); the rest went to the classifier"
        )


if __name__ == "__main__":
    main()
