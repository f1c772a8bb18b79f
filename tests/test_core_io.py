"""kiwara_designer.core.io: the one reader and writer of user files, and the three kinds of input
(layouts, variants, records) read through it with the same checks and messages."""
from __future__ import annotations

import io
import sys

import pytest

from kiwara_designer.core.io import (InputError, InputNote, builtin_name, make_folder, read_text,
                                     source_label, write_text)
from kiwara_designer.games.kiwara import KiwaraRecord, load_variant
from kiwara_designer.games.kiwara.record import RecordError
from kiwara_designer.games.kiwara.variant import VariantError
from kiwara_designer.core.errors import KiwaraError
from kiwara_designer.games.kiwara.formats import load_layout


class FakeStdin:
    def __init__(self, data: bytes) -> None:
        self.buffer = io.BytesIO(data)


def test_reads_a_file_and_stdin(tmp_path, monkeypatch):
    path = tmp_path / "a.txt"
    path.write_text("héllo\n", encoding="utf-8")
    assert read_text(str(path), "thing") == "héllo\n"
    monkeypatch.setattr(sys, "stdin", FakeStdin("from stdin\n".encode()))
    assert read_text("-", "thing") == "from stdin\n"
    assert source_label("-") == "<stdin>" and source_label("x.txt") == "x.txt"


@pytest.mark.parametrize("data, message", [
    (b"ok\nok\nA\0B\n", "bad:3: binary data (NUL byte), not a thing"),
    (b"ok\n\xff\xfe\n", "bad:2: not UTF-8 text (binary file?)"),
    (b"x" * 11, "bad: larger than 10 bytes, not a thing"),
])
def test_bad_contents_are_named_with_their_line(tmp_path, monkeypatch, data, message):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "bad").write_bytes(data)
    with pytest.raises(InputError) as caught:
        read_text("bad", "thing", limit=10)
    assert str(caught.value) == message


def test_missing_file_and_directory(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(InputError, match="^nope: no such file$"):
        read_text("nope", "thing")
    with pytest.raises(InputError, match="custom hint"):
        read_text(str(tmp_path / "nope"), "thing", missing="custom hint")
    with pytest.raises(InputError, match="is a directory, not a thing"):
        read_text(str(tmp_path), "thing")


def test_layouts_variants_and_records_share_the_checks(tmp_path):
    binary = tmp_path / "binary"
    binary.write_bytes(b"A\0")
    for load, error in ((load_layout, InputError), (load_variant, VariantError),
                        (KiwaraRecord.load, RecordError)):
        with pytest.raises(error) as caught:
            load(str(binary))
        assert isinstance(caught.value, KiwaraError)
        assert str(caught.value).startswith(f"{binary}:1: binary data (NUL byte), not a ")


def test_write_text_to_a_file_stdout_and_a_missing_folder(tmp_path, capsys):
    target = tmp_path / "out.txt"
    write_text(str(target), "één\n", "the output")
    assert target.read_bytes() == "één\n".encode("utf-8")
    write_text("-", "to stdout\n", "the output")
    assert capsys.readouterr().out == "to stdout\n"
    with pytest.raises(KiwaraError, match="cannot write the output: No such file or directory"):
        write_text(str(tmp_path / "no" / "such" / "dir.txt"), "x", "the output")


def test_make_folder(tmp_path):
    assert make_folder(tmp_path / "a" / "b", "records").is_dir()
    (tmp_path / "file").write_text("x")
    with pytest.raises(KiwaraError, match="cannot write records"):
        make_folder(tmp_path / "file" / "sub", "records")


def test_record_save_and_load_round_trip_through_a_file_and_stdout(tmp_path, capsys, monkeypatch):
    record = KiwaraRecord.from_moves(load_layout("classic"), None, ["T7"], players=["a", "b"])
    path = tmp_path / "game.json"
    record.save(str(path))
    assert KiwaraRecord.load(str(path)) == record
    record.save("-")
    printed = capsys.readouterr().out
    assert printed == path.read_text(encoding="utf-8")
    monkeypatch.setattr(sys, "stdin", FakeStdin(printed.encode()))
    assert KiwaraRecord.load("-").extra == {"players": ["a", "b"]}


def test_a_file_named_like_a_built_in_is_read_instead(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert builtin_name("classic", ["classic"], "layout") == "classic"
    assert builtin_name("-", ["-"], "layout") is None
    (tmp_path / "classic").write_text("AAB\nABB\n")
    (tmp_path / "totem_1_2").write_text('name = "mine"\n')
    with pytest.warns(InputNote, match=r"^classic: read the file \./classic, not the built-in "
                                       r"layout \(builtin:classic\)$"):
        assert builtin_name("classic", ["classic"], "layout") is None
    with pytest.warns(InputNote):
        assert load_layout("classic").rows == ("AAB", "ABB")
    with pytest.warns(InputNote):
        assert load_variant("totem_1_2").name == "mine"
    assert builtin_name("builtin:classic", ["classic"], "layout") == "classic"
