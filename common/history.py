"""Saving and deleting a model row with its audit trail (django-simple-history): who acted
and why. Every service that writes a tracked model goes through these two functions."""

from __future__ import annotations


def history_user(actor):
    """The user the history records: the actor when signed in, else nobody (a command)."""
    return actor if actor is not None and actor.is_authenticated else None


def save_with_history(
    instance, actor, reason: str | None = None, update_fields=None, *, clean=True
):
    """Validate (unless ``clean=False``) and save ``instance``, recording actor and reason."""
    instance._history_user = history_user(actor)
    if reason:
        instance._change_reason = reason
    if clean:
        instance.full_clean()
    instance.save(update_fields=update_fields)
    return instance


def delete_with_history(instance, actor, reason: str | None = None) -> None:
    instance._history_user = history_user(actor)
    if reason:
        instance._change_reason = reason
    instance.delete()
