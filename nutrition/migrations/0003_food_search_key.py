"""Food search that stays fast on a million rows: a search key, a token index and a vocabulary.

- `food_search_key(name)`: the name as sorted, de-duplicated English stems (Postgres' own
  snowball stemmer, so "Bananas" and "banana" meet) without the filler catalog names carry
  ("raw", "fresh", "whole", "cooked", "broilers or fryers", "not further specified"). "Egg, whole,
  raw, fresh" -> "egg"; "Chicken, broilers or fryers, breast, meat only, cooked, roasted" ->
  "breast chicken meat roast". Stored as the generated column `foods.search_key`.
- `food_search_tokens(key)`: each stem, plus each stem tagged with the key's length
  ("banana#1"). The GIN index on it answers "names of exactly n stems that contain these words"
  with one small posting list, so a search reads the shortest matching names first and stops
  after a few dozen rows, however many thousand names contain "banana".
- `food_search_words`: every stem any food name uses, kept by statement-level triggers (COPY and
  bulk upserts included), with a trigram index: typos are corrected against this vocabulary of a
  few thousand words instead of scanning a million names. Words are never removed; a word no food
  uses any more only costs a lookup that finds nothing.

The functions are IMMUTABLE (the stemmer configuration is named explicitly). Changing one later
needs `UPDATE foods SET name = name` to recompute stored keys, and a REINDEX.
"""

import django.contrib.postgres.indexes
from django.db import migrations, models

# Stems of words that say nothing about what a food is; a query containing them still ranks
# better the names that contain them (nutrition/search/ looks at the plain words too).
NEUTRAL_STEMS = (
    *("raw", "fresh", "whole", "plain", "regular", "cook", "prepar", "without", "ad", "includ"),
    # SR28 wording: "broilers or fryers", "commercial varieties", "NS as to", "not fortified".
    *("ns", "nfs", "specifi", "broiler", "fryer", "commerci", "varieti"),
    *("fortifi", "unfortifi", "enrich", "unenrich"),
)

SEARCH_FUNCTIONS = f"""
CREATE FUNCTION food_search_key(name text) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN array_to_string(
    tsvector_to_array(ts_delete(
        to_tsvector('pg_catalog.english'::regconfig, translate(name, '-/.', '   ')),
        '{{{",".join(NEUTRAL_STEMS)}}}'::text[]
    )),
    ' '
);

CREATE FUNCTION food_search_tokens(key text) RETURNS text[]
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN (
    SELECT words || array(SELECT w || '#' || cardinality(words) FROM unnest(words) AS w)
    FROM string_to_array(key, ' ') AS words
);
"""

VOCABULARY = """
CREATE TABLE food_search_words (word text PRIMARY KEY);
CREATE INDEX food_search_words_trgm ON food_search_words USING gin (word gin_trgm_ops)
    WITH (fastupdate = off);

CREATE FUNCTION food_search_words_collect() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    -- Sorted, so concurrent writers adding the same new words take them in one order.
    INSERT INTO food_search_words (word)
    SELECT DISTINCT w FROM new_foods, unnest(string_to_array(new_foods.search_key, ' ')) AS w
    WHERE w <> ''
    ORDER BY w
    ON CONFLICT (word) DO NOTHING;
    RETURN NULL;
END
$$;

CREATE TRIGGER foods_search_words_insert AFTER INSERT ON foods
    REFERENCING NEW TABLE AS new_foods
    FOR EACH STATEMENT EXECUTE FUNCTION food_search_words_collect();
CREATE TRIGGER foods_search_words_update AFTER UPDATE ON foods
    REFERENCING NEW TABLE AS new_foods
    FOR EACH STATEMENT EXECUTE FUNCTION food_search_words_collect();

INSERT INTO food_search_words (word)
SELECT DISTINCT w FROM foods, unnest(string_to_array(foods.search_key, ' ')) AS w
WHERE w <> ''
ON CONFLICT (word) DO NOTHING;
"""

DROP_VOCABULARY = """
DROP TRIGGER IF EXISTS foods_search_words_update ON foods;
DROP TRIGGER IF EXISTS foods_search_words_insert ON foods;
DROP FUNCTION IF EXISTS food_search_words_collect();
DROP TABLE IF EXISTS food_search_words;
"""


class Migration(migrations.Migration):
    dependencies = [
        ("nutrition", "0002_trigram_name_search"),
    ]

    operations = [
        migrations.RunSQL(
            SEARCH_FUNCTIONS,
            reverse_sql="DROP FUNCTION food_search_tokens(text); DROP FUNCTION food_search_key(text);",
        ),
        migrations.AddField(
            model_name="food",
            name="search_key",
            field=models.GeneratedField(
                db_persist=True,
                expression=models.Func(models.F("name"), function="food_search_key"),
                output_field=models.TextField(),
            ),
        ),
        migrations.AddIndex(
            model_name="food",
            index=django.contrib.postgres.indexes.GinIndex(
                models.Func(models.F("search_key"), function="food_search_tokens"),
                name="foods_search_tokens",
                fastupdate=False,
            ),
        ),
        migrations.RunSQL(VOCABULARY, reverse_sql=DROP_VOCABULARY),
    ]
