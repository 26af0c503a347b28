"""Numeric precision and thread count of NLI inference and training on CPU.

One place for the decision "bf16 or fp32" and for the autocast context that
applies it, shared by the runtime, the evaluator and the training loop.
Measured on the project's 2-core Xeon with AMX / AVX512-BF16 (docs/nli-model.md):
bf16 autocast gave 2-2.9x the fp32 pairs/s at the same held-out accuracy, and
1.2-2x the fp32 training step rate. Where bf16 is only emulated it is slower
than fp32, so ``auto`` checks the CPU.
"""

from __future__ import annotations

import contextlib
import os
from typing import Any, Literal

from provgraph.errors import ModelUnavailableError

#: ``auto`` = bf16 where the CPU multiplies bf16 natively, fp32 elsewhere;
#: ``int8`` = torch dynamic int8 Linear layers (slower than bf16 where bf16 is
#: native; kept for CPUs without it).
Precision = Literal["auto", "fp32", "bf16", "int8"]
PRECISIONS: tuple[str, ...] = ("auto", "fp32", "bf16", "int8")


def default_threads() -> int:
    """CPUs usable by this process (its affinity mask), at least 1.

    The default for one process: 2 threads gave 1.4-1.8x the pairs/s of 1 on an
    idle 2-core machine. Prefork worker children pass 1 instead (one child per
    core; more threads oversubscribe, and on a busy machine 1 thread beat 2).
    """
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def cpu_has_native_bf16() -> bool:
    """True when torch reports AMX or AVX512-BF16 support on this CPU."""
    import torch

    cpu = getattr(torch, "cpu", None)
    for name in ("_is_amx_tile_supported", "_is_avx512_bf16_supported"):
        probe = getattr(cpu, name, None) or getattr(torch._C._cpu, name, None)
        try:
            if probe is not None and bool(probe()):
                return True
        except RuntimeError:
            continue
    return False


def resolve_precision(precision: str) -> str:
    """The concrete precision (``fp32``, ``bf16`` or ``int8``) for ``precision``."""
    if precision not in PRECISIONS:
        raise ModelUnavailableError(
            f"unknown NLI precision {precision!r}; expected one of {', '.join(PRECISIONS)}"
        )
    if precision == "auto":
        return "bf16" if cpu_has_native_bf16() else "fp32"
    return precision


def autocast(precision: str) -> Any:
    """bf16 autocast over fp32 weights for ``"bf16"`` (matmuls in bf16, LayerNorm,
    softmax and the loss in fp32); a no-op context for any other precision."""
    import torch

    if precision == "bf16":
        return torch.autocast("cpu", dtype=torch.bfloat16)
    return contextlib.nullcontext()
