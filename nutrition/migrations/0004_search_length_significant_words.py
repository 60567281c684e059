"""Search length buckets count only the words that say what a food is.

"Milk, whole, 3.25% milkfat, with added vitamin D" has six stems ("25 3 d milk milkfat vitamin")
but says "milk" and little else; tagging it "milk#6" put it behind every three-word milk product
and out of the candidates. The tag now counts stems longer than one letter that are not numbers
or fortification words (`food_search_length`, used by both the index and the search). Stored keys
do not change; the token index is rebuilt.
"""

from django.db import migrations

# Kept in step with nutrition.search.TRIVIAL_STEMS (a test compares them).
TRIVIAL_STEMS = ("vitamin", "milkfat", "fluid", "mineral")

FORWARD = f"""
CREATE FUNCTION food_search_length(words text[]) RETURNS integer
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN (
    SELECT count(*)::integer FROM unnest(words) AS w
    WHERE length(w) > 1 AND w !~ '^[0-9]+$' AND w <> ALL ('{{{",".join(TRIVIAL_STEMS)}}}'::text[])
);

CREATE OR REPLACE FUNCTION food_search_tokens(key text) RETURNS text[]
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN (
    SELECT words || array(SELECT w || '#' || food_search_length(words) FROM unnest(words) AS w)
    FROM string_to_array(key, ' ') AS words
);

REINDEX INDEX foods_search_tokens;
"""

BACKWARD = """
CREATE OR REPLACE FUNCTION food_search_tokens(key text) RETURNS text[]
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN (
    SELECT words || array(SELECT w || '#' || cardinality(words) FROM unnest(words) AS w)
    FROM string_to_array(key, ' ') AS words
);

DROP FUNCTION food_search_length(text[]);

REINDEX INDEX foods_search_tokens;
"""


class Migration(migrations.Migration):
    dependencies = [
        ("nutrition", "0003_food_search_key"),
    ]

    operations = [migrations.RunSQL(FORWARD, reverse_sql=BACKWARD)]
