"""The tool categories: the domains a turn can load tools for, and each profile's default set.
The words live once, in sparky/words/chat_categories.toml (sparky.vocabulary): a user's
preferences keep the slugs, and the core may not import chat."""

from sparky import vocabulary

# Category slug -> one line the prompts and the escalation tool use to describe it.
CATEGORIES: dict[str, str] = vocabulary.CHAT_CATEGORY_DESCRIPTIONS
# The same, in a few words, for the list of categories a turn has not loaded.
GLOSSES: dict[str, str] = vocabulary.CHAT_CATEGORY_GLOSSES
# What the tool selector calls each category.
LABELS: dict[str, str] = vocabulary.CHAT_CATEGORY_LABELS
CORE_CATEGORIES = vocabulary.CORE_CHAT_CATEGORIES
PROFILE_DEFAULTS = {"full": tuple(CATEGORIES), "core": CORE_CATEGORIES}
