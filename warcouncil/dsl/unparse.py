"""AST back to rule text (the generator half of parse → AST → generate)."""

from __future__ import annotations

from . import ast as A

_PREC = {
    A.Quant: 0, A.IfElse: 0, A.The: 0, A.Implies: 1, A.Or: 2, A.And: 3, A.Not: 4, A.Compare: 5,
    A.BinOp: 6, A.Neg: 8,
}


def _prec(e) -> int:
    if isinstance(e, A.BinOp):
        return 7 if e.op in "*/" else 6
    return _PREC.get(type(e), 9)


def expr(e: A.Expr) -> str:
    def sub(x, at_least: int) -> str:
        s = expr(x)
        return f"({s})" if _prec(x) < at_least else s

    if isinstance(e, A.Num):
        return str(e.value)
    if isinstance(e, A.Str):
        return '"' + e.value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(e, A.Const):
        return {True: "true", False: "false", None: "none"}[e.value]
    if isinstance(e, A.Name):
        return e.id
    if isinstance(e, A.Value):  # a value the solver worked out (for reading, not parsing): a piece by its id
        v = e.value
        if isinstance(v, bool) or v is None:
            return expr(A.Const(v))
        return str(getattr(v, "id", None) or repr(v))
    if isinstance(e, A.Attr):
        obj = sub(e.obj, 9)
        if isinstance(e.obj, A.Num):
            obj = f"({obj})"
        return f"{obj}.{e.name}"
    if isinstance(e, A.Call):
        return f"{e.func}({', '.join(expr(a) for a in e.args)})"
    if isinstance(e, A.BinOp):
        p = _prec(e)
        return f"{sub(e.left, p)} {e.op} {sub(e.right, p + 1)}"
    if isinstance(e, A.Neg):
        return f"-{sub(e.operand, 8)}"
    if isinstance(e, A.Compare):
        op = {"in": "in", "notin": "not in"}.get(e.op, e.op)
        return f"{sub(e.left, 6)} {op} {sub(e.right, 6)}"
    if isinstance(e, A.Not):
        return f"not {sub(e.operand, 4)}"
    if isinstance(e, A.And):
        return " and ".join(sub(i, 4) for i in e.items)
    if isinstance(e, A.Or):
        return " or ".join(sub(i, 3) for i in e.items)
    if isinstance(e, A.Implies):
        return f"{sub(e.left, 2)} implies {sub(e.right, 2)}"
    if isinstance(e, A.IfElse):
        return f"if {expr(e.cond)} then {expr(e.then)} else {expr(e.other)}"
    if isinstance(e, A.Quant):
        return f"{e.kind} {e.var} in {sub(e.domain, 2)}: {expr(e.body)}"
    if isinstance(e, A.SetComp):
        cond = f" where {expr(e.cond)}" if e.cond is not None else ""
        return f"{{{e.var} in {sub(e.domain, 2)}{cond}}}"
    if isinstance(e, A.The):
        return f"the {e.var} in {sub(e.domain, 2)} where {expr(e.cond)}"
    raise TypeError(f"not an expression: {e!r}")


def quota(q: A.Quota) -> str:
    amount = q.amount if isinstance(q.amount, str) else "up to " + expr(q.amount)
    where = f" where {expr(q.where)}" if q.where is not None else ""
    return f"{amount} {q.what}{where}"


def alternative(alt: A.Alternative) -> str:
    head = {"orders": "orders", "instead": "instead"}.get(alt.kind)
    if alt.kind == "otherwise":
        head = f"otherwise when {expr(alt.when)}"
    body = "; ".join(quota(q) for q in alt.quotas) or "nothing"
    if alt.group is not None:
        if alt.group.kind == "linked":
            body += ", linked"
        else:
            body += f", led by {alt.group.role or 'leader'}" + (f" where {expr(alt.group.anchor)}" if alt.group.anchor is not None else "")
    return f"{head}: {body}"


def card_orders(card: A.CardDecl) -> str:
    """A one-line summary of who a card orders."""
    if card.get("copy") is not None:
        return f"copies the {card.get('copy')}'s card" + (" (mirrored)" if card.get("mirrored") else "")
    parts = [alternative(a) for a in card.alternatives]
    if card.get("roll") is not None:
        parts.insert(0, f"roll {expr(card.get('roll'))} dice")
    return " | ".join(parts)
