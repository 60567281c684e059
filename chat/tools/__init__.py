"""The tool registry and the two surfaces built from it.

- `build_chatbot_tools(user, profile, categories)`: exactly those tools, the last one carrying the
  Anthropic cache breakpoint. Manual selection in chat, and the MCP server.
- `build_chat_tool_surface(user, tz)`: every domain tool plus `sparky_enable_tools`, built once per
  (user id, time zone) and kept in memory; auto mode narrows it to an active list every step. The
  breakpoint sits on `sparky_enable_tools`, which is always active and always sent last.
- `run_tool(ctx, name, raw_arguments, allowed=...)`: how every tool call is executed, whoever made
  it: arguments repaired and validated, the handler run in its own transaction, and every failure
  turned into a result the model can read.
"""

from __future__ import annotations

import copy
import dataclasses
import functools
import importlib
import json
import logging
import re
from typing import Any

import json_repair
import jsonschema
from django.core.exceptions import ObjectDoesNotExist, ValidationError
from django.db import transaction

from chat.categories import CATEGORIES, CORE_CATEGORIES, PROFILE_DEFAULTS
from chat.prompt_files import category_prompt
from chat.tools import grounding
from chat.tools.base import ENABLE_TOOL_NAME, Tool, ToolContext, ToolResult, registry
from chat.tools.schema import array, obj, string

__all__ = [
    "CATEGORIES",
    "CORE_CATEGORIES",
    "ENABLE_TOOL_NAME",
    "PROFILE_DEFAULTS",
    "Tool",
    "ToolContext",
    "ToolResult",
    "ToolSet",
    "build_chat_tool_surface",
    "Checked",
    "build_chatbot_tools",
    "check_tool",
    "enable_tool",
    "run_tool",
    "tools_for",
]

logger = logging.getLogger(__name__)
# Importing a category's module registers its tools; this order is the registry's order.
for _module in CATEGORIES:
    importlib.import_module(f"chat.tools.{_module}")
CACHE_CONTROL = {"type": "ephemeral"}


def profile_categories(profile: str) -> list[str]:
    """The categories a profile can load: those with tools or a sub-prompt in it (the core
    profile reads photos and coaches through its food tools and prompts, and has no profile or
    reports tools)."""
    having = {t.category for t in tools_for(profile)}
    return [c for c in CATEGORIES if c in having or category_prompt(profile, c)]


def _enable_handler(ctx, args) -> ToolResult:
    wanted = [c.strip().lower() for c in args.get("categories", []) if isinstance(c, str)]
    offered = profile_categories(ctx.profile)
    unknown = [c for c in wanted if c not in CATEGORIES]
    outside = [c for c in wanted if c in CATEGORIES and c not in offered]
    known = [c for c in wanted if c in offered]
    elsewhere = (
        f" {', '.join(outside)} is not part of the {ctx.profile} tool profile: tell the user it "
        "needs the Full profile (Settings, AI services)."
        if outside
        else ""
    )
    if not known:
        return ToolResult(
            ok=False,
            message=f"No category to load in {wanted}. Choose from: {', '.join(offered)}."
            + elsewhere,
        )
    note = f" Ignored unknown: {', '.join(unknown)}." if unknown else ""
    return ToolResult(
        ok=True,
        message=(
            f"Enabled {', '.join(known)}. Their tools are available from your next step."
            f"{note}{elsewhere}"
        ),
        data={"enabled": known},
    )


def enable_tool() -> Tool:
    return Tool(
        name=ENABLE_TOOL_NAME,
        category="coaching",
        description=(
            "Load more tool categories when your tools cannot do what the user asked. Call it "
            "before telling the user something is not possible."
        ),
        parameters=obj(
            required=["categories"],
            categories=array(
                'Categories to load, e.g. ["exercise"].',
                string("category", enum=list(CATEGORIES)),
            ),
        ),
        handler=_enable_handler,
        profiles=frozenset({"full", "core"}),
        example={"categories": ["exercise"]},
    )


def tools_for(profile: str, categories=None) -> list[Tool]:
    """Domain tools of a profile, in registry order, optionally only some categories."""
    if profile not in PROFILE_DEFAULTS:
        raise ValueError(f"unknown tool profile {profile!r}")
    wanted = set(categories) if categories is not None else set(CATEGORIES)
    return [t for t in registry().values() if profile in t.profiles and t.category in wanted]


@dataclasses.dataclass(frozen=True)
class ToolSet:
    """Tools to offer, in the order they are sent; `breakpoint` names the cache-marked one."""

    tools: tuple[Tool, ...]
    breakpoint: str | None

    @property
    def names(self) -> list[str]:
        return [t.name for t in self.tools]

    def get(self, name: str) -> Tool | None:
        return next((t for t in self.tools if t.name == name), None)

    def payload(self, *, cache_control: bool) -> list[dict]:
        specs = []
        for t in self.tools:
            spec = copy.deepcopy(t.spec())
            if cache_control and t.name == self.breakpoint:
                spec["cache_control"] = dict(CACHE_CONTROL)
            specs.append(spec)
        return specs

    def without(self, names) -> ToolSet:
        """These tools left out; the last one left carries the breakpoint if it went."""
        chosen = tuple(t for t in self.tools if t.name not in names)
        mark = self.breakpoint if self.breakpoint not in names else None
        return ToolSet(tools=chosen, breakpoint=mark or (chosen[-1].name if chosen else None))

    def narrowed(self, active: list[str]) -> ToolSet:
        """The active subset, in surface order; the breakpoint tool stays last if active."""
        keep = set(active)
        chosen = tuple(t for t in self.tools if t.name in keep)
        return ToolSet(tools=chosen, breakpoint=self.breakpoint)


def build_chatbot_tools(user, profile: str, categories) -> ToolSet:
    chosen = tuple(tools_for(profile, categories))
    return ToolSet(tools=chosen, breakpoint=chosen[-1].name if chosen else None)


@functools.lru_cache(maxsize=2048)
def _surface(user_id, tz_name: str) -> ToolSet:
    # Every domain tool (full profile order) and the escalation tool last.
    return ToolSet(tools=(*tools_for("full"), enable_tool()), breakpoint=ENABLE_TOOL_NAME)


def build_chat_tool_surface(user, tz) -> ToolSet:
    return _surface(user.pk, str(tz))


def active_tool_names(profile: str, categories) -> list[str]:
    """Auto mode: the surface tools a step may use — the profile's tools of those categories."""
    return [t.name for t in tools_for(profile, categories)] + [ENABLE_TOOL_NAME]


# --- running a call -------------------------------------------------------------------------

_WRAPPER_KEYS = ("arguments", "args", "params", "parameters", "input", "kwargs")
_FORGED_KEYS = {"user", "user_id", "userid", "owner", "owner_id", "account", "account_id"}


def _loads_lenient(raw: str):
    """Arguments as JSON; what small models write loosely (fences, single quotes, trailing
    commas, a missing brace) is mended by json-repair."""
    text = raw.strip()
    fence = re.fullmatch(r"```(?:json)?\s*(.*?)\s*```", text, flags=re.S)
    if fence:
        text = fence.group(1)
    if not text:
        return {}
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        value = json_repair.loads(text)
        if isinstance(value, dict):
            return value
        raise


def _coerce(value, schema: dict):
    kind = schema.get("type")
    if kind in ("number", "integer") and isinstance(value, str):
        try:
            num = float(value.strip().replace(",", ""))
        except ValueError:
            return value
        return int(num) if kind == "integer" and num.is_integer() else num
    if kind == "integer" and isinstance(value, float) and value.is_integer():
        return int(value)
    if kind == "boolean" and isinstance(value, str) and value.lower() in ("true", "false"):
        return value.lower() == "true"
    if kind == "string" and isinstance(value, int | float) and not isinstance(value, bool):
        return str(value)
    if kind == "array" and not isinstance(value, list) and value is not None:
        value = [value]
    if kind == "array" and isinstance(value, list):
        return [_coerce(v, schema.get("items", {})) for v in value if v is not None]
    if kind == "object" and isinstance(value, dict):
        return _clean(value, schema)
    return value


def _clean(args: dict, schema: dict) -> dict:
    """Drop nulls, unknown keys (a forged user_id among them) and coerce simple types."""
    props = schema.get("properties", {})
    out = {}
    for key, value in args.items():
        if value is None or (isinstance(value, str) and value.strip().lower() in ("", "null")):
            continue
        if key not in props:
            continue
        out[key] = _coerce(value, props[key])
    return out


def prepare_arguments(t: Tool, raw) -> dict:
    """Parse and repair a model's arguments; raises ValueError with a corrective message."""
    if isinstance(raw, str):
        try:
            args = _loads_lenient(raw)
        except json.JSONDecodeError:
            raise ValueError("The arguments were not valid JSON.") from None
    else:
        args = raw or {}
    if not isinstance(args, dict):
        raise ValueError("The arguments must be a JSON object.")
    # Small models nest: {"arguments": {...}} or {"log_food": {...}}.
    for key in (*_WRAPPER_KEYS, t.name):
        if len(args) == 1 and isinstance(args.get(key), dict):
            args = args[key]
    if _FORGED_KEYS & {k.lower() for k in args}:
        logger.info("tool %s: dropped a user field the model supplied", t.name)
    args = _clean(args, t.parameters)
    validator = jsonschema.Draft202012Validator(t.parameters)
    errors = sorted(validator.iter_errors(args), key=lambda e: list(e.path))
    if errors:
        raise ValueError("; ".join(_describe(e) for e in errors[:3]))
    return args


def _describe(error: jsonschema.ValidationError) -> str:
    where = ".".join(str(p) for p in error.path)
    if error.validator == "required":
        return error.message.replace("is a required property", "is required")
    if error.validator == "enum":
        return f"{where or 'value'} must be one of {', '.join(map(str, error.validator_value))}"
    if error.validator == "type":
        return f"{where or 'value'} must be a {error.validator_value}"
    return f"{where}: {error.message}" if where else error.message


def _corrective(t: Tool, problem: str) -> ToolResult:
    example = json.dumps(t.example) if t.example else None
    text = f"{t.name} was not called correctly: {problem}."
    if example:
        text += f" Call it again with arguments like {example}."
    return ToolResult(ok=False, message=text, data={"refused": "arguments"})


def _validation_text(error: ValidationError) -> str:
    return " ".join(error.messages)


@dataclasses.dataclass
class Checked:
    """One call, checked and not done: `result` is what it would do — a refusal, options to
    choose from, a question to confirm, or (ok) the rows it would write — and `commit()` does
    it. A read is done when checked (nothing to keep or drop); a writing tool that cannot plan
    (`Tool.plans` False) is checked by its arguments and grounding only, and done at commit."""

    name: str
    result: ToolResult
    tool: Tool | None = None
    arguments: dict | None = None
    ctx: ToolContext | None = dataclasses.field(default=None, repr=False)
    # The arguments as the caller wrote them: what a held call is replayed with.
    raw: Any = None
    done: ToolResult | None = None

    @property
    def writes(self) -> bool:
        return self.tool is not None and self.tool.writes

    @property
    def deferred(self) -> bool:
        """A write whose rows are known only once it is done."""
        return self.writes and not self.tool.plans and self.result.ok

    @property
    def keeps(self) -> bool:
        """Whether committing it would write something."""
        return self.result.ok and (self.result.plan is not None or self.deferred)

    def commit(self) -> ToolResult:
        """Do the call (once): its plan, or a deferred tool's handler, in a transaction of its
        own; a refusal or a read as checked."""
        if self.done is None:
            if not self.keeps:
                self.done = self.result
            elif self.result.plan is not None:
                self.done = _guarded(self.name, self.result.plan)
            else:
                self.done = _guarded(self.name, lambda: self.tool.handler(self.ctx, self.arguments))
        return self.done


def _guarded(name: str, act) -> ToolResult:
    """A call's work in its own transaction, every failure turned into a result the model can
    read; a refusal keeps nothing."""

    def in_transaction() -> ToolResult:
        with transaction.atomic():
            result = act()
            if not result.ok:
                # A refusal writes nothing, even if the handler had started.
                transaction.set_rollback(True)
                result.written = []
        return result

    return _answered(name, in_transaction)


def _answered(name: str, act) -> ToolResult:
    """What `act` returns, or its failure as a result: the user's input refused by a service,
    something not found, or a fault of Sparky's (logged, never shown as it is)."""
    try:
        return act()
    except ValidationError as exc:
        return _refused(exc)
    except ObjectDoesNotExist as exc:
        return ToolResult(ok=False, message=(str(exc) or "Not found.") + " Nothing was saved.")
    except Exception:
        logger.exception("tool %s failed", name)
        return ToolResult(ok=False, message=f"{name} failed unexpectedly; nothing was saved.")


def _refused(exc: ValidationError) -> ToolResult:
    if getattr(exc, "code", None) == "implausible":
        # Out of the range the food's portions make plausible: the user is asked first.
        question = _validation_text(exc)
        return ToolResult(
            ok=False,
            message=f"{question} Nothing was saved: ask the user to confirm or correct it.",
            confirm=question,
        )
    return ToolResult(ok=False, message=_validation_text(exc) + " Nothing was saved.")


def check_tool(
    ctx: ToolContext,
    name: str,
    raw_arguments,
    *,
    allowed: ToolSet | None = None,
    dormant_hint: str | None = None,
) -> Checked:
    """Check one tool call, whoever made it, without writing: the tool offered, the arguments
    repaired and validated, a model's writes grounded in what the user said, and a planning
    tool's handler asked what it would do. Never raises for the model's mistakes or the user's
    bad input."""
    checked = _check(ctx, name, raw_arguments, allowed, dormant_hint)
    checked.raw = raw_arguments
    return checked


def _check(ctx, name, raw_arguments, allowed, dormant_hint) -> Checked:
    if allowed is not None:
        t = allowed.get(name)
    else:
        t = enable_tool() if name == ENABLE_TOOL_NAME else registry().get(name)
    if t is None:
        if name in registry() or name == ENABLE_TOOL_NAME:
            hint = dormant_hint or "It is not available right now."
            return Checked(
                name,
                ToolResult(
                    ok=False,
                    message=f"The tool {name} was not offered on this step. {hint}",
                    data={"refused": "not_offered"},
                ),
            )
        choices = ", ".join(allowed.names if allowed is not None else registry())
        return Checked(
            name,
            ToolResult(
                ok=False,
                message=f"There is no tool named {name!r}. Tools: {choices}.",
                data={"refused": "unknown_tool"},
            ),
        )
    try:
        args = prepare_arguments(t, raw_arguments)
    except ValueError as exc:
        return Checked(name, _corrective(t, str(exc)), t)
    if t.writes and ctx.said is not None:
        strict = ctx.profile == "core"  # a small model's made-up details; a capable one's stay
        args = grounding.grounded_arguments(t.name, args, ctx.said, strict=strict)
        reason = grounding.ungrounded(t.name, args, ctx.said)
        if reason:
            refusal = ToolResult(
                ok=False, message=f"Not done: {reason}", data={"refused": "ungrounded"}
            )
            return Checked(name, refusal, t, args, ctx)
    if t.writes and not t.plans:  # done at commit, checked by its arguments alone
        return Checked(name, ToolResult(ok=True, message=""), t, args, ctx)
    if t.writes:
        result = _checked_plan(name, lambda: t.handler(ctx, args))
    else:
        result = _guarded(name, lambda: t.handler(ctx, args))
    return Checked(name, result, t, args, ctx)


def _checked_plan(name: str, check) -> ToolResult:
    """A planning handler's answer, its refusals read as a doing handler's are."""
    result = _answered(name, check)
    if not result.ok:
        result.plan = None
    return result


def run_tool(
    ctx: ToolContext,
    name: str,
    raw_arguments,
    *,
    allowed: ToolSet | None = None,
    dormant_hint: str | None = None,
) -> ToolResult:
    """Execute one tool call at once: checked, then done. Never raises for the model's mistakes
    or the user's bad input."""
    return check_tool(ctx, name, raw_arguments, allowed=allowed, dormant_hint=dormant_hint).commit()
