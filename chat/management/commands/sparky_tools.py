"""List the tool registry: what each profile sends and which category each tool belongs to."""

import json

from django.core.management.base import BaseCommand

from chat.tools import CATEGORIES, ENABLE_TOOL_NAME, tools_for


class Command(BaseCommand):
    help = "List Sparky's chat tools by profile and category."

    def add_arguments(self, parser):
        parser.add_argument("--profile", choices=["full", "core"], help="only this profile's tools")
        parser.add_argument("--json", action="store_true", help="one JSON object")

    def handle(self, *args, profile=None, json=False, **options):
        full, core = tools_for("full"), tools_for("core")
        if json:
            payload = {
                "full": [t.name for t in full],
                "core": [t.name for t in core],
                "categories": {
                    slug: [t.name for t in full if t.category == slug] for slug in CATEGORIES
                },
                "meta": [ENABLE_TOOL_NAME],
            }
            self.stdout.write(_dumps(payload))
            return
        shown = tools_for(profile) if profile else full
        width = max(len(t.name) for t in shown)
        for t in shown:
            profiles = ",".join(p for p in ("full", "core") if p in t.profiles)
            self.stdout.write(f"{t.name:<{width}}  {t.category:<9}  {profiles}")
        self.stdout.write(
            f"\n{len(full)} tools in full, {len(core)} in core; auto mode adds {ENABLE_TOOL_NAME}."
        )


def _dumps(value) -> str:
    return json.dumps(value)
