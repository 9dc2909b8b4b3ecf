"""The association tree read from the database: every association's parent, and the
associations at or below one. The one place that reads the tree for permissions, selectors,
the history and the rooms above the federation (a league's clubs)."""

from __future__ import annotations

from federation.associations.models import Association


def association_parents() -> dict[int, int | None]:
    """Every association's parent id (one query; the tree has tens of rows, not thousands)."""
    return dict(Association.objects.order_by().values_list("pk", "parent_id"))


def subtree_ids(root_pk: int, parents: dict[int, int | None]) -> set[int]:
    """`root_pk` and the ids of every association below it in `parents` (id -> parent id)."""
    children: dict[int | None, list[int]] = {}
    for pk, parent in parents.items():
        children.setdefault(parent, []).append(pk)
    found, todo = set(), [root_pk]
    while todo:
        pk = todo.pop()
        if pk not in found:
            found.add(pk)
            todo.extend(children.get(pk, []))
    return found


def associations_below(association_pk: int) -> set[int]:
    """The association's id and the ids of every association below it, at any depth (one
    query). Its clubs are those affiliated with one of these."""
    return subtree_ids(association_pk, association_parents())
