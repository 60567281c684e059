"""Food search on a catalog of a million foods: food_search against a plain ILIKE query.

    .venv/bin/python bench/food_search.py [--rows 1000000] [--rounds 7] [--repeat 5] [--keep]

Creates its own scratch database (sparky_bench, dropped at the end unless --keep), migrates it,
loads the real USDA SR28 catalog, then N generated foods through COPY: brand, modifier, food,
form and preparation words combined the way retail and catalog names are written ("Sunny Acres
Organic Banana Chips", "Bananas, dried, with peanut", "HAPPY FARMS, chicken breast sandwich,
large"), 5% of them private custom foods of 200 other users and 1% shared ones, a fifth with a
barcode. Then, for a fixed set of queries, interleaved in one run and in a shuffled order each
round, it times food_search (the whole service call, Food objects included) and
`SELECT id, name FROM foods WHERE name ILIKE '%term%' ORDER BY name LIMIT 10`, and prints p50 and
p95 per query, overall, their ratio, and the top results food_search gave.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
BENCH_DB = os.environ.get("SPARKY_BENCH_DB", "sparky_bench")  # another name beside others' runs

QUERIES = [
    "banana",
    "chicken breast",
    "oatmeal",
    "bananna",
    "egg",
    "greek yogurt",
    "brown rice",
    "chiken breast",
    "peanut butter",
    "whole milk",
    "salmon",
    "apple",
    "orange juice",
    "cheddar cheese",
    "taco",  # the survey foods' dishes (FNDDS) beside SR28's
    "turkey sandwich",
    "BARCODE",  # replaced by a barcode present in the generated catalog
]

# --- names ---------------------------------------------------------------------------------------

FOODS = """banana apple orange pear peach mango pineapple strawberry blueberry raspberry grape
cherry lemon lime kiwi watermelon melon coconut avocado tomato potato carrot broccoli spinach kale
lettuce cucumber onion garlic pepper mushroom corn pea bean lentil chickpea rice oat quinoa barley
wheat bread bagel muffin pasta noodle cracker cereal granola chicken turkey beef pork lamb ham
bacon sausage salmon tuna shrimp cod tilapia egg milk cheese yogurt butter cream almond peanut
cashew walnut pecan pistachio hazelnut sesame honey chocolate vanilla caramel cinnamon maple tofu
tempeh hummus salsa pumpkin zucchini cauliflower cabbage celery beet radish squash cranberry
raisin date fig apricot plum pomegranate papaya olive""".split()
PLURALS = {
    "cherry": "cherries",
    "strawberry": "strawberries",
    "blueberry": "blueberries",
    "raspberry": "raspberries",
    "cranberry": "cranberries",
    "potato": "potatoes",
    "tomato": "tomatoes",
    "peach": "peaches",
}
FORMS = """chips bar bars bread muffin smoothie salad sandwich soup wrap pie cake cookies crisps
juice drink shake bowl burrito pizza nuggets strips patties sticks spread butter sauce dip pudding
yogurt cereal flakes puffs bites clusters porridge stew curry casserole skewers burger tacos
pancakes waffles""".split()
MODIFIERS = """organic natural classic original light low-fat reduced-fat fat-free sugar-free
unsweetened sweetened greek whole-grain multigrain gluten-free vegan keto protein high-protein
mini family-size snack-size honey-roasted salted unsalted spicy mild smoked frozen dried canned
instant premium homestyle southern italian mexican thai""".split()
PREPARATIONS = """grilled roasted baked fried steamed boiled raw cooked sauteed braised poached
scrambled toasted breaded marinated seasoned""".split()
CUTS = {
    "chicken": ["breast", "thigh", "wing", "drumstick", "tenders"],
    "beef": ["steak", "ground", "brisket", "sirloin"],
    "pork": ["chop", "loin", "ribs"],
    "turkey": ["breast", "ground", "deli slices"],
    "salmon": ["fillet", "smoked"],
}
BRAND_FIRST = """Sunny Golden Green Happy Blue Red Old Little Big Wild Pure Simple Good True Harvest
Meadow River Mountain Valley Farm Prairie Ocean Maple Oak Cedar Willow""".split()
BRAND_SECOND = """Acres Fields Farms Kitchen Pantry Valley Hill Grove Orchard Creek Market Table
Harvest Garden Bakery Dairy Foods Co Brothers Basics Choice Select""".split()


def make_brands(rng: random.Random, n: int = 400) -> list[str]:
    brands: set[str] = set()
    while len(brands) < n:
        brand = f"{rng.choice(BRAND_FIRST)} {rng.choice(BRAND_SECOND)}"
        brands.add(brand.upper() if rng.random() < 0.3 else brand)
    return sorted(brands)


def make_name(rng: random.Random, brands: list[str]) -> str:
    food, other = rng.choice(FOODS), rng.choice(FOODS)
    if food in CUTS and rng.random() < 0.5:
        food = f"{food} {rng.choice(CUTS[food])}"
    kind = rng.random()
    if kind < 0.30:  # a retail product: brand, maybe a modifier, the food, usually a form
        parts = [rng.choice(brands)]
        if rng.random() < 0.6:
            parts.append(rng.choice(MODIFIERS))
        parts.append(food)
        if rng.random() < 0.8:
            parts.append(rng.choice(FORMS))
        name = " ".join(parts)
        return name.title() if rng.random() < 0.7 else name
    if kind < 0.50:  # a product with a second ingredient, sometimes branded
        name = f"{rng.choice(MODIFIERS).title()} {food} {rng.choice(FORMS)} with {other}"
        return f"{name}, {rng.choice(brands)}" if rng.random() < 0.5 else name
    if kind < 0.70:  # catalog style: "Head, qualifier, preparation"
        head = PLURALS.get(food, food + "s" if rng.random() < 0.3 else food)
        qualifiers = [rng.choice(MODIFIERS), rng.choice(PREPARATIONS)]
        if rng.random() < 0.5:
            qualifiers.append(f"with {other}")
        return f"{head.capitalize()}, " + ", ".join(qualifiers)
    if kind < 0.85:  # a dish
        return f"{rng.choice(PREPARATIONS).title()} {food} and {other} {rng.choice(FORMS)}"
    size = rng.choice(["regular", "large", "small", "kids"])  # a restaurant item
    return f"{rng.choice(brands).upper()}, {food} {rng.choice(FORMS)}, {size}"


# --- database ------------------------------------------------------------------------------------


def database_urls() -> tuple[str, str]:
    """(maintenance URL, bench URL) on the server DATABASE_URL points at."""
    base = os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/sparky")
    parts = urlsplit(base)
    return (
        urlunsplit(parts._replace(path="/postgres")),
        urlunsplit(parts._replace(path=f"/{BENCH_DB}")),
    )


def recreate_database(maintenance_url: str, drop_only: bool = False) -> None:
    import psycopg

    with psycopg.connect(maintenance_url, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {BENCH_DB} WITH (FORCE)")
        if not drop_only:
            conn.execute(f"CREATE DATABASE {BENCH_DB}")


def step(label: str, started: float) -> float:
    now = time.perf_counter()
    print(f"  {label:<52} {now - started:6.1f} s", flush=True)
    return now


def load_catalog(rows: int, seed: int) -> tuple[object, str]:
    """SR28 plus `rows` generated foods; returns (the bench user, a barcode in the catalog)."""
    from django.db import connection

    from nutrition.catalog import import_foods
    from nutrition.services import food_create_custom
    from sparky.models import User

    started = time.perf_counter()
    import_foods()
    started = step("USDA SR28 catalog (8,789 foods, servings)", started)

    rng = random.Random(seed)
    user = User.objects.create_user(email="bench@example.com", password="bench")
    others = User.objects.bulk_create(
        [User(email=f"other{i}@example.com", password="!") for i in range(200)]
    )
    brands = make_brands(rng)
    for i in range(50):  # the bench user's own foods, found first when they match
        food_create_custom(user=user, name=make_name(rng, brands), calories=100 + i)

    with connection.cursor() as cursor:
        # Index builds after the load are several times faster than index updates during it.
        cursor.execute(
            "SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'foods' "
            "AND indexname <> 'foods_pkey'"
        )
        indexes = cursor.fetchall()
        for indexname, _ in indexes:
            cursor.execute(f"DROP INDEX {indexname}")
        barcode = None
        columns = (
            "name, calories, protein, carbs, fat, sugars, serving_size, serving_unit, is_custom, "
            "user_id, shared_with_public, barcode, source, source_id, food_group, original_name, "
            "display_name"
        )
        with cursor.cursor.copy(f"COPY foods ({columns}) FROM STDIN") as copy:
            for i in range(rows):
                custom = rng.random() < 0.06
                code = f"{rng.randrange(10**12, 10**13)}" if rng.random() < 0.2 else None
                if code and barcode is None and not custom:
                    barcode = code
                name = make_name(rng, brands)
                copy.write_row(
                    (
                        name,
                        rng.randint(20, 600),
                        rng.randint(0, 40),
                        rng.randint(0, 80),
                        rng.randint(0, 40),
                        rng.randint(0, 30),
                        100,
                        "g",
                        custom,
                        rng.choice(others).id if custom else None,
                        custom and rng.random() < 0.15,
                        code,
                        "bench",
                        str(i),
                        "",
                        "",
                        name,  # a NOT NULL column since display names came (0006)
                    )
                )
        started = step(f"COPY {rows:,} generated foods (search keys, vocabulary)", started)

    def build(definition: str) -> None:
        from django.db import connections

        with connections["default"].cursor() as c:
            c.execute("SET maintenance_work_mem = '512MB'")
            c.execute(definition)
        connections.close_all()

    # Two cores: the two GIN indexes, the slow ones, are built side by side.
    gin = [d for _, d in indexes if "USING gin" in d]
    rest = [d for _, d in indexes if "USING gin" not in d]
    threads = [threading.Thread(target=build, args=(d,)) for d in gin]
    for thread in threads:
        thread.start()
    for definition in rest:
        build(definition)
    for thread in threads:
        thread.join()
    started = step(f"indexes rebuilt ({len(indexes)})", started)
    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE foods")
        cursor.execute("VACUUM ANALYZE food_search_words")
    step("VACUUM ANALYZE", started)
    return user, barcode


# --- timing --------------------------------------------------------------------------------------


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered)) - 1))]


def measure(user, queries: list[str], rounds: int, repeat: int, seed: int):
    from django.db import connection

    from nutrition.services import food_search

    def searched(query: str) -> float:
        began = time.perf_counter()
        food_search(user=user, query=query, limit=10)
        return (time.perf_counter() - began) * 1000

    def plain(query: str) -> float:
        began = time.perf_counter()
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT id, name FROM foods WHERE name ILIKE %s ORDER BY name LIMIT 10",
                [f"%{query}%"],
            )
            cursor.fetchall()
        return (time.perf_counter() - began) * 1000

    for query in queries:  # warm the caches and the connection for both
        searched(query)
        plain(query)
    rng = random.Random(seed)
    ours = {q: [] for q in queries}
    theirs = {q: [] for q in queries}
    for _ in range(rounds):
        order = queries[:]
        rng.shuffle(order)
        for query in order:
            if rng.random() < 0.5:
                theirs[query].append(plain(query))
                ours[query].extend(searched(query) for _ in range(repeat))
            else:
                ours[query].extend(searched(query) for _ in range(repeat))
                theirs[query].append(plain(query))
    return ours, theirs


def report(ours: dict, theirs: dict, labels: dict, user) -> None:
    from nutrition.services import food_search

    print()
    header = f"{'query':<18} {'food_search p50':>15} {'p95':>8} {'ILIKE p50':>11} {'p95':>8}"
    print(f"{header} {'x p50':>7}")
    for query, samples in ours.items():
        o50, o95 = statistics.median(samples), percentile(samples, 0.95)
        t50, t95 = statistics.median(theirs[query]), percentile(theirs[query], 0.95)
        print(
            f"{labels[query]:<18} {o50:13.2f}ms {o95:6.2f}ms {t50:9.1f}ms {t95:6.1f}ms "
            f"{t50 / o50:6.0f}x"
        )
    every_ours = [v for samples in ours.values() for v in samples]
    every_theirs = [v for samples in theirs.values() for v in samples]
    o50, o95 = statistics.median(every_ours), percentile(every_ours, 0.95)
    t50, t95 = statistics.median(every_theirs), percentile(every_theirs, 0.95)
    print(f"{'ALL':<18} {o50:13.2f}ms {o95:6.2f}ms {t50:9.1f}ms {t95:6.1f}ms {t50 / o50:6.0f}x")
    print(
        f"\nfood_search: p50 {o50:.2f} ms, p95 {o95:.2f} ms over {len(every_ours)} calls; "
        f"ILIKE: p50 {t50:.1f} ms, p95 {t95:.1f} ms over {len(every_theirs)} calls; "
        f"ratio p50 {t50 / o50:.0f}x, p95 {t95 / o95:.0f}x"
    )
    print("\nTop results of food_search:")
    for query in ours:
        found = food_search(user=user, query=query, limit=3)
        names = "; ".join(f"{f.name} ({f.score:.2f})" for f in found) or "-"
        print(f"  {labels[query]:<16} {names}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=1_000_000, help="generated foods")
    parser.add_argument("--rounds", type=int, default=7, help="interleaved rounds")
    parser.add_argument("--repeat", type=int, default=5, help="food_search calls per round")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--keep", action="store_true", help=f"keep the {BENCH_DB} database")
    args = parser.parse_args()

    maintenance_url, bench_url = database_urls()
    os.environ["DATABASE_URL"] = bench_url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    began = time.perf_counter()
    print(f"Scratch database {BENCH_DB}, {args.rows:,} generated foods", flush=True)
    recreate_database(maintenance_url)
    try:
        import django

        django.setup()
        from django.core.management import call_command
        from django.db import connections

        started = time.perf_counter()
        call_command("migrate", verbosity=0)
        step("migrate", started)
        user, barcode = load_catalog(args.rows, args.seed)
        queries = [barcode if q == "BARCODE" else q for q in QUERIES if q != "BARCODE" or barcode]
        labels = {q: ("(barcode)" if q == barcode else q) for q in queries}
        started = time.perf_counter()
        ours, theirs = measure(user, queries, args.rounds, args.repeat, args.seed)
        step("measured", started)
        report(ours, theirs, labels, user)
        with connections["default"].cursor() as cursor:
            cursor.execute(
                "SELECT pg_size_pretty(pg_table_size('foods')), "
                "pg_size_pretty(pg_relation_size('foods_search_tokens')), "
                "pg_size_pretty(pg_relation_size('foods_name_trgm')), "
                "(SELECT count(*) FROM food_search_words), (SELECT count(*) FROM foods)"
            )
            table, tokens, trigram, words, total = cursor.fetchone()
        print(
            f"\n{total:,} foods ({table}); token index {tokens}, trigram index {trigram}; "
            f"vocabulary {words:,} stems. Total run {time.perf_counter() - began:.0f} s."
        )
        connections.close_all()
    finally:
        if not args.keep:
            recreate_database(maintenance_url, drop_only=True)


if __name__ == "__main__":
    main()
