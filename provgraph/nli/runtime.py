"""Offline loading and batched inference of an NLI cross-encoder.

``load_nli_model()`` returns the model shipped in ``provgraph/nli/model/``;
``load_nli_model("some/folder")`` or ``load_nli_model("org/hf-cross-encoder")``
replaces it. Constraints and reasons:

* Loading never touches the network (``local_files_only=True``): provgraph runs
  in air-gapped environments, and a silent download would be a surprise there.
  A Hugging Face id therefore only works if it is already in the local HF cache.
* Column order of ``predict`` follows the model's own ``id2label``
  (exposed as ``labels``), never a hard-coded order: third-party NLI models
  disagree on it.
* Premises are truncated, hypotheses (claims) never: ``truncation="only_first"``
  (a claim that alone fills the window is the one exception, see
  :func:`provgraph.nli.data.encode`). Callers window long sources themselves
  (~200-250 tokens, the length the shipped model was trained for).
* Anything missing or unloadable raises :class:`ModelUnavailableError` saying what
  was tried and what to do; verification stages record the stage as skipped.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from provgraph.errors import ModelUnavailableError
from provgraph.nli.precision import Precision, autocast, default_threads, resolve_precision
from provgraph.quiet_loading import quiet_model_loading

#: Folder of the shipped model (package data).
SHIPPED_MODEL_DIR = Path(__file__).with_name("model")


@contextmanager
def _torch_threads(n: int | None) -> Iterator[None]:
    """Temporarily set torch's intra-op thread count (a process-wide setting)."""
    import torch

    if not n or n == torch.get_num_threads():
        yield
        return
    before = torch.get_num_threads()
    torch.set_num_threads(n)
    try:
        yield
    finally:
        torch.set_num_threads(before)


@dataclass
class NLIModel:
    """A loaded cross-encoder; ``predict`` gives probabilities in ``labels`` order."""

    model: Any
    tokenizer: Any
    labels: tuple[str, ...]
    source: str
    max_len: int = 256
    threads: int | None = None
    precision: str = "fp32"

    def predict(self, pairs: Sequence[tuple[str, str]], batch_size: int = 32) -> np.ndarray:
        """Probabilities ``[len(pairs), len(labels)]`` for ``(premise, hypothesis)`` pairs.

        Pairs are batched by length (less padding), results come back in input
        order. Rows sum to 1 (softmax over the model's logits).
        """
        import torch

        from provgraph.nli.data import encode

        n = len(pairs)
        out = np.zeros((n, len(self.labels)), dtype=np.float32)
        if n == 0:
            return out
        order = sorted(range(n), key=lambda i: len(pairs[i][0]) + len(pairs[i][1]))
        with _torch_threads(self.threads), torch.inference_mode():
            for start in range(0, n, max(1, batch_size)):
                idx = order[start : start + batch_size]
                enc = encode(
                    self.tokenizer,
                    [pairs[i][0] for i in idx],
                    [pairs[i][1] for i in idx],
                    self.max_len,
                )
                with autocast(self.precision):
                    logits = self.model(**enc).logits.float()
                out[idx] = torch.softmax(logits, dim=-1).numpy()
        return out


def _labels_from_config(config: Any) -> tuple[str, ...]:
    id2label = {int(k): str(v) for k, v in (config.id2label or {}).items()}
    if sorted(id2label) != list(range(len(id2label))) or not id2label:
        raise ValueError(f"id2label is not a 0..n-1 mapping: {config.id2label!r}")
    return tuple(id2label[i].lower() for i in range(len(id2label)))


def _quantize_int8(net: Any, source: str) -> Any:
    """Dynamic int8 quantisation of Linear layers (``torch.ao``, deprecated upstream).

    ``torch.ao.quantization`` is marked deprecated; if a future torch drops it
    this raises :class:`ModelUnavailableError` telling the caller to use fp32.
    """
    import warnings

    import torch

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            from torch.ao.quantization import quantize_dynamic

            return quantize_dynamic(  # type: ignore[no-untyped-call]
                net, {torch.nn.Linear}, dtype=torch.qint8
            )
    except (ImportError, AttributeError, RuntimeError) as exc:
        raise ModelUnavailableError(
            f"int8 quantisation of NLI model {source!r} failed ({type(exc).__name__}: {exc}); "
            "load it with precision='fp32' or 'bf16'."
        ) from exc


def load_nli_model(
    model: str | None = None,
    *,
    threads: int | None = None,
    max_len: int = 256,
    precision: Precision = "auto",
) -> NLIModel:
    """Load an NLI cross-encoder offline.

    ``model`` is ``None`` (the shipped ``provgraph/nli/model/``), a local folder,
    or a Hugging Face id already present in the local cache. ``threads`` sets
    torch's intra-op threads during ``predict`` (``None``: :func:`default_threads`).
    ``precision`` (see :mod:`provgraph.nli.precision`): weights stay fp32; ``bf16`` runs the
    matrix multiplies under bf16 autocast, ``int8`` quantises the Linear layers
    at load time. Raises :class:`ModelUnavailableError` when the model cannot be
    loaded or the precision is unknown.
    """
    resolved = resolve_precision(precision)
    if model is None:
        target = SHIPPED_MODEL_DIR
        if not (target / "config.json").is_file():
            raise ModelUnavailableError(
                f"the shipped NLI model is missing: {target}/config.json does not exist. "
                "Reinstall provgraph with its package data, export a trained checkpoint "
                "with `python -m provgraph.nli.export`, or pass a local model folder / "
                "cached Hugging Face cross-encoder id to load_nli_model()."
            )
        source = str(target)
    else:
        local = Path(model).expanduser()
        if local.exists():
            if not (local / "config.json").is_file():
                raise ModelUnavailableError(
                    f"NLI model folder {local} has no config.json; expected a Hugging Face "
                    "model folder (config.json, tokenizer files, weights). Export one with "
                    "`python -m provgraph.nli.export` or point to another folder."
                )
            source = str(local)
        else:
            source = model
    try:
        import torch  # noqa: F401  (fail early with a clear message if torch is missing)
        from transformers import AutoModelForSequenceClassification, AutoTokenizer
    except ImportError as exc:
        raise ModelUnavailableError(
            f"cannot load NLI model {source!r}: {exc}. Install the ML extra: "
            "pip install 'provgraph[ml]'."
        ) from exc
    quiet_model_loading()
    try:
        tokenizer = AutoTokenizer.from_pretrained(source, local_files_only=True)
        net = AutoModelForSequenceClassification.from_pretrained(source, local_files_only=True)
        labels = _labels_from_config(net.config)
    except Exception as exc:
        where = "local folder" if Path(source).exists() else "Hugging Face id (local cache only)"
        raise ModelUnavailableError(
            f"cannot load NLI model {source!r} as {where}, without network: "
            f"{type(exc).__name__}: {exc}. Pass a folder holding config.json (with id2label), "
            "tokenizer files and weights, or download the model into the HF cache on a "
            "connected machine first; provgraph never downloads at run time."
        ) from exc
    net = net.float().eval()  # fp16 weights are stored; CPU inference runs in fp32
    if resolved == "int8":
        net = _quantize_int8(net, source)
    return NLIModel(
        model=net,
        tokenizer=tokenizer,
        labels=labels,
        source=source,
        max_len=max_len,
        threads=threads if threads is not None else default_threads(),
        precision=resolved,
    )
