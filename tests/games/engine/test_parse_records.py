"""The one reader of deal records (games.engine.records.parse_records), shared by the command line
and the site's upload: a JSON list is a list of records (docs/RECORDS.md, "Reading records")."""
import json

from games.engine.records import Parsed, parse_records


def test_one_json_document_is_one_record_on_line_one():
    assert parse_records('{"a": 1}') == [Parsed(1, {"a": 1})]


def test_a_json_list_is_its_records_numbered_by_their_place():
    text = json.dumps([{"a": 1}, {"b": 2}], indent=2)
    assert parse_records(text) == [Parsed(1, {"a": 1}), Parsed(2, {"b": 2})]


def test_json_lines_skip_blank_lines_and_keep_each_lines_number():
    assert parse_records('{"a": 1}\n\n  \n{"b": 2}\n') == [Parsed(1, {"a": 1}), Parsed(4, {"b": 2})]


def test_a_line_that_is_not_json_is_kept_with_its_error_and_the_others_still_read():
    parsed = parse_records('{"a": 1}\n{not json\n{"b": 2}')
    assert [(p.line, p.record) for p in parsed] == [(1, {"a": 1}), (2, None), (3, {"b": 2})]
    assert parsed[1].error and "Expecting" in parsed[1].error
    assert parsed[0].error is None and parsed[2].error is None


def test_nothing_but_blanks_is_no_record():
    assert parse_records("") == [] and parse_records(" \n\n") == []
