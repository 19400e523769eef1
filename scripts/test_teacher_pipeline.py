"""Tests for teacher_pipeline.py: which commands a run still has to do, given the
shards a folder already holds (run with ``python3 -m pytest scripts/``)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

import teacher_pipeline


def args_for(tmp_path: Path, *extra: str):
    argv = ["--variant", "atomic", "--teacher", "/bin/teacher", "--tag", "t8", "--shards", "3"]
    argv += ["--seed", "10", "--data", str(tmp_path), "--threads", "2", *extra]
    return teacher_pipeline.parser().parse_args(argv)


def names(steps):
    return [(done.name if done else None, cmd[1] if "label_stockfish.py" not in cmd[1] else "label") for done, cmd in steps]


def test_a_fresh_folder_generates_labels_and_tunes_every_shard(tmp_path):
    steps = teacher_pipeline.plan(args_for(tmp_path))
    assert names(steps) == [
        ("shard-10.bin", "datagen"),
        ("shard-10-t8.bin", "label"),
        ("shard-11.bin", "datagen"),
        ("shard-11-t8.bin", "label"),
        ("shard-12.bin", "datagen"),
        ("shard-12-t8.bin", "label"),
        (None, "tune"),
    ]
    datagen = steps[0][1]
    assert datagen[datagen.index("--seed") + 1] == "10"
    assert datagen[-1].endswith("shard-10.bin.tmp")
    label = steps[1][1]
    assert label[label.index("--engine") + 1] == "/bin/teacher"
    assert "UCI_Variant=atomic" in label
    tune = steps[-1][1]
    assert tune[tune.index("--lambda") + 1] == "0"
    assert [tune[i + 1] for i, a in enumerate(tune) if a == "--data"] == [
        str(tmp_path / f"shard-{s}-t8.bin") for s in (10, 11, 12)
    ]


def test_a_surviving_folder_resumes_where_it_stopped(tmp_path):
    # Shard 10 is labelled, shard 11 generated but not labelled, shard 12 untouched;
    # a .tmp left by an interrupted step counts for nothing.
    for name in ("shard-10.bin", "shard-10-t8.bin", "shard-11.bin", "shard-12.bin.tmp"):
        (tmp_path / name).write_bytes(b"x")
    steps = teacher_pipeline.plan(args_for(tmp_path, "--no-tune"))
    assert names(steps) == [
        ("shard-11-t8.bin", "label"),
        ("shard-12.bin", "datagen"),
        ("shard-12-t8.bin", "label"),
    ]


def test_a_completed_step_is_renamed_into_place(tmp_path, monkeypatch):
    calls = []

    def fake_run(cmd, check):
        calls.append(cmd)
        out = cmd[cmd.index("--out") + 1]
        Path(out).write_bytes(b"data")

    monkeypatch.setattr(teacher_pipeline.subprocess, "run", fake_run)
    argv = ["--variant", "kingofthehill", "--teacher", "/bin/t", "--tag", "t", "--shards", "1"]
    argv += ["--data", str(tmp_path), "--no-tune"]
    assert teacher_pipeline.main(argv) == 0
    assert len(calls) == 2
    assert (tmp_path / "shard-1.bin").read_bytes() == b"data"
    assert (tmp_path / "shard-1-t.bin").exists()
    assert not list(tmp_path.glob("*.tmp"))


def test_fit_nnue_trains_a_network_on_every_labelled_shard(tmp_path):
    steps = teacher_pipeline.plan(args_for(tmp_path, "--fit", "nnue", "--lambda", "0.1"))
    train = steps[-1][1]
    assert train[1] == "train"
    assert train[train.index("--lambda") + 1] == "0.1"
    assert train[train.index("--epochs") + 1] == "30"
    assert train[train.index("--threads") + 1] == "2"
    assert "--init" not in train and "--k" not in train
    train = teacher_pipeline.plan(args_for(tmp_path, "--fit", "nnue", "--k", "180", "--init", "c.nnue"))[-1][1]
    assert train[train.index("--k") + 1] == "180"
    assert "--residual" not in train
    residual = teacher_pipeline.plan(args_for(tmp_path, "--fit", "nnue", "--residual"))[-1][1]
    assert residual[1] == "train" and "--residual" in residual
    assert train[train.index("--init") + 1] == "c.nnue"
    assert [train[i + 1] for i, a in enumerate(train) if a == "--data"] == [
        str(tmp_path / f"shard-{s}-t8.bin") for s in (10, 11, 12)
    ]
    tune = teacher_pipeline.plan(args_for(tmp_path, "--init", "a.eval"))[-1][1]
    assert tune[1] == "tune" and tune[tune.index("--epochs") + 1] == "1000"


def test_match_plays_the_file_the_fit_wrote_against_the_embedded_one(tmp_path, monkeypatch):
    calls = []

    def fake_run(cmd, check, **kwargs):
        calls.append(cmd)
        if cmd[1] == "train":
            # What `sapper train` prints: the file, then its losses.
            return teacher_pipeline.subprocess.CompletedProcess(cmd, 0, "nets/atomic-0123abcd.nnue: 10 training\n")
        return teacher_pipeline.subprocess.CompletedProcess(cmd, 0, "")

    monkeypatch.setattr(teacher_pipeline.subprocess, "run", fake_run)
    for name in ("shard-10.bin", "shard-10-t8.bin"):
        (tmp_path / name).write_bytes(b"x")
    argv = ["--variant", "atomic", "--teacher", "/bin/t", "--tag", "t8", "--shards", "1", "--seed", "10"]
    argv += ["--data", str(tmp_path), "--threads", "2", "--fit", "nnue", "--match", "40"]
    assert teacher_pipeline.main(argv) == 0
    assert [c[1] for c in calls] == ["train", str(teacher_pipeline.SCRIPTS / "match.py")]
    match = calls[1]
    assert match[match.index("--option1") + 1] == f"EvalFile={Path('nets/atomic-0123abcd.nnue').resolve()}"
    assert match[match.index("--engine1") + 1] == match[match.index("--engine2") + 1]
    assert match[match.index("--games") + 1] == "40"
    assert match[match.index("--tc") + 1] == "5+0.05"
    assert match[match.index("--openings") + 1].endswith("atomic-random.epd")


def test_no_match_without_games_and_no_file_no_match(tmp_path, monkeypatch):
    calls = []
    monkeypatch.setattr(
        teacher_pipeline.subprocess,
        "run",
        lambda cmd, check, **kw: calls.append(cmd) or teacher_pipeline.subprocess.CompletedProcess(cmd, 0, "done\n"),
    )
    (tmp_path / "shard-10-t8.bin").write_bytes(b"x")
    argv = ["--variant", "atomic", "--teacher", "/bin/t", "--tag", "t8", "--shards", "1", "--seed", "10"]
    argv += ["--data", str(tmp_path), "--fit", "nnue"]
    assert teacher_pipeline.main(argv) == 0
    assert len(calls) == 1
    with pytest.raises(SystemExit):
        teacher_pipeline.main(argv + ["--match", "10"])


def test_residual_without_a_network_fit_is_refused(tmp_path, capsys):
    argv = ["--variant", "atomic", "--teacher", "/bin/t", "--tag", "t", "--data", str(tmp_path), "--residual"]
    with pytest.raises(SystemExit) as exit_info:
        teacher_pipeline.main(argv)
    assert exit_info.value.code == 2
    assert "--residual needs --fit nnue" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []
