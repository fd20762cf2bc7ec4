"""`python3 benches/games_as_text.py BEFORE/games.parquet AFTER/games.parquet before.csv after.csv`,
then `cmp before.csv after.csv` (docs/performance.md, "Exact hundredths in games.parquet").

games.parquet of a run written with integer hundredths, as the text of the same run written with
floats: each side's *_expected and *_change are the hundredths over 100 (the unrounded
*_expected_exact where a system recorded one), in the old file's column order; then both as CSV.
Hundredths go through a table of Python's own true division (h / 100.0, as the old writer divided):
polars divides by a constant as a multiplication by 0.01, which differs in the last bit."""
import sys
import polars as pl

old_path, new_path, old_csv, new_csv = sys.argv[1:5]
old = pl.scan_parquet(old_path)
new = pl.scan_parquet(new_path)
names = new.collect_schema().names()

def over_100(column):
    values = new.select(pl.col(column).unique()).collect().to_series().drop_nulls().to_list()
    return pl.col(column).replace_strict({v: v / 100.0 for v in values}, return_dtype=pl.Float64)

conversions = []
for side in ["white", "black"]:
    expected = over_100(f"{side}_expected_hundredths")
    if f"{side}_expected_exact" in names:
        expected = pl.coalesce(pl.col(f"{side}_expected_exact"), expected)
    conversions.append(expected.alias(f"{side}_expected"))
    conversions.append(over_100(f"{side}_change_hundredths").alias(f"{side}_change"))
order = old.collect_schema().names()
old.sink_csv(old_csv)
new.with_columns(conversions).select(order).sink_csv(new_csv)
