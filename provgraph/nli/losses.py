"""The NLI trainer's loss: cross-entropy on gold labels, optionally distilled from a teacher.

Kept apart from the trainer so the formula is testable on its own tensors.
"""

from __future__ import annotations

from collections.abc import Sequence

import torch


def training_loss(
    logits: torch.Tensor,
    target: torch.Tensor,
    teacher_log_probs: torch.Tensor | None = None,
    *,
    alpha: float = 0.5,
    temperature: float = 1.0,
) -> torch.Tensor:
    """``alpha * T^2 * KL(teacher_T || student_T) + (1 - alpha) * CE(student, gold)``.

    Without a teacher (or with ``alpha == 0``) this is plain cross-entropy. The
    ``T^2`` factor keeps the distillation gradient's scale independent of the
    temperature (Hinton et al. 2015). ``teacher_log_probs`` are log-probabilities
    (any constant shift per row is harmless: they are re-normalised at ``T``).
    """
    if not 0.0 <= alpha <= 1.0 or temperature <= 0.0:
        raise ValueError(f"need 0 <= alpha <= 1 and temperature > 0, not {alpha}, {temperature}")
    ce = torch.nn.functional.cross_entropy(logits, target)
    if teacher_log_probs is None or alpha == 0.0:
        return ce
    student = torch.log_softmax(logits / temperature, dim=-1)
    teacher = torch.log_softmax(teacher_log_probs / temperature, dim=-1)
    kl = torch.nn.functional.kl_div(student, teacher, log_target=True, reduction="batchmean")
    return alpha * temperature**2 * kl + (1.0 - alpha) * ce


def teacher_tensor(rows: Sequence[Sequence[float] | None]) -> torch.Tensor | None:
    """The batch's teacher log-probabilities, or ``None`` unless every pair has them."""
    if not rows or any(r is None for r in rows):
        return None
    return torch.tensor([list(r) for r in rows if r is not None], dtype=torch.float32)
