"""Reads for the federation pages; each runs a fixed number of queries, whatever the number
of associations, clubs and roles."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Count

from clubs.models import Club
from federation.associations.models import Affiliation, Association, AssociationRole
from federation.associations.permissions import OFFICER, associations_for, can_manage
from federation.associations.tree import associations_below


@dataclass
class TreeRow:
    pk: int
    name: str
    short_name: str
    kind: str
    kind_label: str
    depth: int
    parent_name: str  # only when the parent is not shown (a regional officer's region)
    clubs: int  # clubs of this association and every one below it
    can_manage: bool
    children: list = field(default_factory=list)

    @property
    def url(self):
        from django.urls import reverse

        return reverse("federation:association_detail", args=[self.pk])


def association_tree(user) -> list[TreeRow]:
    """The associations the user sees, national first with its regions below (3 queries)."""
    visible = associations_for(user)
    managed = set(associations_for(user, OFFICER).values_list("pk", flat=True))
    rows = (
        visible.annotate(club_count=Count("affiliations"))
        .order_by("name")
        .values("pk", "name", "short_name", "kind", "parent_id", "parent__name", "club_count")
    )
    labels = dict(Association.Kind.choices)
    by_pk = {
        r["pk"]: TreeRow(
            pk=r["pk"], name=r["name"], short_name=r["short_name"], kind=r["kind"],
            kind_label=str(labels.get(r["kind"], r["kind"])), depth=0,
            parent_name=r["parent__name"] or "", clubs=r["club_count"],
            can_manage=r["pk"] in managed,
        )
        for r in rows
    }  # fmt: skip
    roots = []
    for r in rows:
        node = by_pk[r["pk"]]
        parent = by_pk.get(r["parent_id"])
        if parent is None:
            roots.append(node)
        else:
            node.parent_name = ""
            parent.children.append(node)
    ordered: list[TreeRow] = []

    def walk(node: TreeRow, depth: int) -> int:
        node.depth = depth
        ordered.append(node)
        node.clubs += sum(walk(child, depth + 1) for child in node.children)
        return node.clubs

    for root in roots:
        walk(root, 0)
    return ordered


@dataclass
class AssociationPage:
    association: Association
    affiliations: object  # a queryset for the sortable table
    children: list
    roles: list
    can_manage: bool
    join_choices: object = None  # clubs without an association (officers of a regional one)


def association_detail(user, association: Association) -> AssociationPage:
    """Clubs of the association's subtree, the associations right below it, its roles."""
    ids = associations_below(association.pk)
    affiliations = Affiliation.objects.filter(association_id__in=ids).select_related(
        "club", "association"
    )
    children = list(
        Association.objects.filter(parent=association)
        .annotate(club_count=Count("affiliations"))
        .order_by("name")
    )
    manage = can_manage(user, association)
    page = AssociationPage(
        association=association,
        affiliations=affiliations,
        children=children,
        roles=[],
        can_manage=manage,
    )
    if manage:
        page.roles = list(
            AssociationRole.objects.filter(association=association)
            .select_related("user")
            .order_by("user__username")
        )
        if association.kind == Association.Kind.REGIONAL:
            page.join_choices = Club.objects.filter(affiliation__isnull=True).order_by("name")
    return page


def user_associations(user):
    """The user's own roles, each with its association (one query)."""
    if not user.is_authenticated:
        return AssociationRole.objects.none()
    return (
        AssociationRole.objects.filter(user=user)
        .select_related("association")
        .order_by("association__name")
    )


def move_targets(user, affiliation: Affiliation):
    """Regional associations the user manages, except the club's current one."""
    return (
        associations_for(user, OFFICER)
        .filter(kind=Association.Kind.REGIONAL)
        .exclude(pk=affiliation.association_id)
        .order_by("name")
    )
