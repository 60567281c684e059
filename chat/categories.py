"""The tool categories: the domains a turn can load tools for, and each profile's default set."""

# Category slug -> one line the prompts and the escalation tool use to describe it.
CATEGORIES: dict[str, str] = {
    "food": "log, find, edit and delete foods and meals; the food diary",
    "exercise": "log, find, edit and delete workouts; the exercise diary",
    "checkin": "weight, body measurements, steps, water and custom measurements",
    "goals": "nutrition and water goals, the day's progress against them",
    "coaching": "advice drawn from the user's own recent data",
    "vision": "reading meal photos and nutrition labels",
    "profile": "the user's preferences: units, time zone, dietary notes",
    "reports": "weekly reports, trends, streaks and patterns",
}
# The same, in a few words, for the list of categories a turn has not loaded.
GLOSSES: dict[str, str] = {
    "food": "foods, meals, the food diary",
    "exercise": "workouts",
    "checkin": "weight, measurements, steps, water",
    "goals": "goals and progress",
    "coaching": "advice",
    "vision": "meal photos, labels",
    "profile": "preferences, units",
    "reports": "weekly reports, trends",
}
# What the tool selector calls each category.
LABELS: dict[str, str] = {
    "food": "Food",
    "exercise": "Exercise",
    "checkin": "Check-ins",
    "goals": "Goals",
    "coaching": "Coaching",
    "vision": "Photos",
    "profile": "Profile",
    "reports": "Reports",
}
CORE_CATEGORIES = ("food", "exercise", "checkin", "goals")
PROFILE_DEFAULTS = {"full": tuple(CATEGORIES), "core": CORE_CATEGORIES}
