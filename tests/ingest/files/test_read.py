"""Finding log files: files, folders (recursive), globs; each once, in path order."""

from __future__ import annotations

import gzip
import os

import pytest

from ingest.files import log_list
from ingest.files.read import find_logs, read_log


@pytest.fixture
def tree(tmp_path, monkeypatch):
    for name in ("a/b/2.jsonl", "a/b/1.jsonl.gz", "a-b/3.jsonl", "a/notes.txt", "a/4.jsonl"):
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(b"{}\n")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def names(targets):
    return [str(p) for p in find_logs(targets)]


def test_a_folder_is_searched_recursively_for_logs_only_in_path_order(tree):
    # Folder by folder: "a/b/…" comes before "a-b/…" although "-" sorts before "/".
    assert names(["./"]) == ["a/4.jsonl", "a/b/1.jsonl.gz", "a/b/2.jsonl", "a-b/3.jsonl"]


def test_a_link_to_a_folder_is_not_followed_but_a_link_to_a_log_is_taken(tree):
    (tree / "z").symlink_to(tree / "a-b", target_is_directory=True)
    (tree / "a" / "0.jsonl").symlink_to(tree / "a-b" / "3.jsonl")
    assert names(["."]) == [
        "a/0.jsonl",
        "a/4.jsonl",
        "a/b/1.jsonl.gz",
        "a/b/2.jsonl",
        "a-b/3.jsonl",
    ]


def test_later_targets_repeat_no_log_of_earlier_ones(tree):
    assert names(["a/4.jsonl", "a-b", "a"]) == [
        "a/4.jsonl",
        "a-b/3.jsonl",
        "a/b/1.jsonl.gz",
        "a/b/2.jsonl",
    ]


def test_files_and_globs_are_taken_as_given_and_each_log_once(tree):
    assert names(["./a/b/2.jsonl", "a/b/*.jsonl*", "a/b/"]) == ["a/b/2.jsonl", "a/b/1.jsonl.gz"]
    assert names(["**/3.jsonl"]) == [os.path.join("a-b", "3.jsonl")]


def test_a_target_that_matches_nothing_is_named(tree):
    with pytest.raises(FileNotFoundError, match=r"nothing/\*\.jsonl"):
        list(find_logs(["a/4.jsonl", "nothing/*.jsonl"]))


def test_gzip_is_recognised_by_its_bytes_not_its_name(tree):
    (tree / "a" / "packed.jsonl").write_bytes(gzip.compress(b'{"kind": "header"}\n'))
    assert read_log(tree / "a" / "packed.jsonl") == b'{"kind": "header"}\n'
    assert read_log(tree / "a" / "4.jsonl") == b"{}\n"


def test_a_log_list_gives_back_the_paths_it_was_given_in_their_order(monkeypatch):
    monkeypatch.setattr(log_list, "BATCH", 3)  # several Arrow chunks, slices across them
    given = ["a/b/1.jsonl", "a/b/2.jsonl", "3.jsonl", "/abs/4.jsonl.gz", "a/5.jsonl", "a/b/6.jsonl"]
    logs = log_list.LogList(given)
    assert len(logs) == 6 and list(logs) == given
    assert logs[2:5] == given[2:5] and logs[4:] == given[4:] and logs[5:1] == []
    assert logs[::2] == given[::2]
    assert (logs[0], logs[-1]) == (given[0], given[-1])
    with pytest.raises(IndexError):
        logs[6]
    assert list(log_list.LogList([])) == []
