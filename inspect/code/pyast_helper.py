# pyast_helper.py: the Python parser of dapscope's code index. Embedded in the
# Go binary and run as ONE /usr/bin/python3 subprocess per (re)index batch.
#
# Protocol: stdin carries one JSON object per line
#   {"p": repo-relative path, "m": dotted module name, "pkg": is __init__.py, "src": source}
# and stdout gets one JSON object per input line, in order:
#   {"p": path, "doc": module docstring, "imports": [[local, target]],
#    "calls": [[name, receiver_type, line]], "defs": [...], "err": "..."}
# Every def is {"n": local qualified name, "k": kind, "s": start, "e": end,
#   "par": parent local name, "doc": docstring, "ds": [doc start, doc end],
#   "params": [[name, annotation, default]], "ret": annotation,
#   "rets": [return expressions], "yield": bool, "raises": [names],
#   "globals": [names written], "calls": [[name, receiver_type, line]],
#   "bases": [base expressions], "attrs": [[attribute, type]]}
# Only the standard library is used; nothing is imported or executed from the
# parsed sources.
import ast
import json
import sys

DOC_MAX = 4000
EXPR_MAX = 80


def unparse(node, limit=EXPR_MAX):
    if node is None:
        return ""
    try:
        s = ast.unparse(node)
    except Exception:
        return ""
    s = " ".join(s.split())
    if len(s) > limit:
        s = s[: limit - 1] + "\u2026"
    return s


def dotted(node):
    """Return a.b.c for Name/Attribute chains, '' otherwise."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
        return ".".join(reversed(parts))
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "super":
        parts.append("super()")
        return ".".join(reversed(parts))
    return ""


def type_name(node):
    """A class-like name from an annotation or constructor call, or ''."""
    if node is None:
        return ""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value.strip()
    if isinstance(node, ast.Subscript):
        # Optional[X] -> X
        base = dotted(node.value)
        if base.split(".")[-1] == "Optional":
            return type_name(node.slice)
        return ""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        left = type_name(node.left)
        return left
    name = dotted(node)
    if name and name.split(".")[-1][:1].isupper():
        return name
    return ""


def docstring_span(body):
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
            and isinstance(body[0].value.value, str):
        n = body[0]
        return [n.lineno, getattr(n, "end_lineno", n.lineno)]
    return None


class FuncScan:
    """Collects calls, raises, returns, global writes and imports of one
    body, not descending into nested function or class definitions.

    The traversal is an explicit preorder stack with a per-type dispatch
    table: the same visiting order as ast.NodeVisitor, about twice as fast.
    """

    def __init__(self, types, imports):
        self.calls = []
        self.raises = []
        self.rets = []
        self.has_yield = False
        self.globals_decl = set()
        self.globals_written = []
        self.types = dict(types)
        self.imports = imports  # shared sink of Import/ImportFrom nodes
        self.attrs = {}  # self.x = Class(...) / x: Class (class body) -> type
        self.class_body = False
        self.handlers = {
            ast.FunctionDef: self.on_def,
            ast.AsyncFunctionDef: self.on_def,
            ast.ClassDef: self.on_def,
            ast.Call: self.on_call,
            ast.Raise: self.on_raise,
            ast.Return: self.on_return,
            ast.Yield: self.on_yield,
            ast.YieldFrom: self.on_yield,
            ast.Global: self.on_global,
            ast.Nonlocal: self.on_global,
            ast.Assign: self.on_assign,
            ast.AugAssign: self.on_augassign,
            ast.AnnAssign: self.on_annassign,
            ast.With: self.on_with,
            ast.AsyncWith: self.on_with,
            ast.Import: self.on_import,
            ast.ImportFrom: self.on_import,
        }

    def scan(self, stmts):
        self.walk(list(stmts))

    def visit(self, node):
        self.walk([node])

    def walk(self, nodes):
        stack = nodes[::-1]
        handlers = self.handlers
        AST = ast.AST
        while stack:
            node = stack.pop()
            h = handlers.get(type(node))
            if h is not None:
                children = h(node)
                if children is not None:
                    # the handler chose which children to visit
                    stack.extend(reversed(children))
                    continue
            kids = []
            for field in node._fields:
                v = getattr(node, field, None)
                if isinstance(v, AST):
                    kids.append(v)
                elif isinstance(v, list):
                    for x in v:
                        if isinstance(x, AST):
                            kids.append(x)
            stack.extend(reversed(kids))

    def on_def(self, node):
        # decorators run in the enclosing scope; the body is another scope
        return list(node.decorator_list)

    def on_call(self, node):
        name = dotted(node.func)
        if name:
            head = name.split(".", 1)[0]
            self.calls.append([name, self.types.get(head, ""), node.lineno])
        elif isinstance(node.func, ast.Attribute):
            self.calls.append(["?." + node.func.attr, "", node.lineno])

    def on_raise(self, node):
        exc = node.exc
        if isinstance(exc, ast.Call):
            exc = exc.func
        name = dotted(exc) if exc is not None else ""
        if not name and exc is None:
            name = "(re-raise)"
        if name and name not in self.raises:
            self.raises.append(name)

    def on_return(self, node):
        if node.value is not None and len(self.rets) < 3:
            r = unparse(node.value)
            if r and r not in self.rets:
                self.rets.append(r)

    def on_yield(self, node):
        self.has_yield = True

    def on_global(self, node):
        self.globals_decl.update(node.names)
        return []

    def _written(self, target):
        if isinstance(target, ast.Name) and target.id in self.globals_decl \
                and target.id not in self.globals_written:
            self.globals_written.append(target.id)
        elif isinstance(target, (ast.Tuple, ast.List)):
            for t in target.elts:
                self._written(t)

    def value_type(self, value):
        """The type of an assigned value: Class(...) -> Class, f(...) ->
        "()f" (resolved by the indexer from f's return annotation), or ''."""
        if not isinstance(value, ast.Call):
            return ""
        tn = type_name(value.func)
        if tn:
            return tn
        fn = dotted(value.func)
        return "()" + fn if fn else ""

    def self_attr(self, target):
        """'x' for self.x / cls.x in a method, else ''."""
        if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) \
                and self.types.get(target.value.id) == "@self":
            return target.attr
        return ""

    def on_assign(self, node):
        for t in node.targets:
            self._written(t)
            vt = self.value_type(node.value)
            if not vt:
                continue
            if isinstance(t, ast.Name):
                self.types[t.id] = vt
            else:
                a = self.self_attr(t)
                if a and a not in self.attrs:
                    self.attrs[a] = vt

    def on_augassign(self, node):
        self._written(node.target)

    def on_annassign(self, node):
        self._written(node.target)
        tn = type_name(node.annotation)
        if not tn:
            return
        if isinstance(node.target, ast.Name):
            self.types[node.target.id] = tn
            if self.class_body:
                self.attrs[node.target.id] = tn  # dataclass-style field
        else:
            a = self.self_attr(node.target)
            if a:
                self.attrs[a] = tn

    def on_with(self, node):
        for item in node.items:
            if isinstance(item.optional_vars, ast.Name) and isinstance(item.context_expr, ast.Call):
                tn = type_name(item.context_expr.func)
                if tn:
                    self.types[item.optional_vars.id] = tn

    def on_import(self, node):
        self.imports.append(node)
        return []


def params_of(args):
    out = []
    types = {}
    pos = list(args.posonlyargs) + list(args.args)
    defaults = [None] * (len(pos) - len(args.defaults)) + list(args.defaults)
    for a, d in zip(pos, defaults):
        out.append([a.arg, unparse(a.annotation), unparse(d) if d is not None else None])
        tn = type_name(a.annotation)
        if tn:
            types[a.arg] = tn
    if args.vararg:
        out.append(["*" + args.vararg.arg, unparse(args.vararg.annotation), None])
    for a, d in zip(args.kwonlyargs, args.kw_defaults):
        out.append([a.arg, unparse(a.annotation), unparse(d) if d is not None else None])
        tn = type_name(a.annotation)
        if tn:
            types[a.arg] = tn
    if args.kwarg:
        out.append(["**" + args.kwarg.arg, unparse(args.kwarg.annotation), None])
    return out, types


def walk_defs(body, parent, parent_kind, is_test_file, defs, class_name, imports):
    for node in body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            emit_def(node, parent, parent_kind, is_test_file, defs, class_name, imports)
        elif isinstance(node, (ast.If, ast.Try, ast.With, ast.AsyncWith, ast.For, ast.While)):
            # Definitions nested in module/class-level control flow
            # (if TYPE_CHECKING:, try/except ImportError:) still count.
            for field in ("body", "orelse", "finalbody"):
                walk_defs(getattr(node, field, []) or [], parent, parent_kind, is_test_file, defs, class_name, imports)
            for h in getattr(node, "handlers", []) or []:
                walk_defs(h.body, parent, parent_kind, is_test_file, defs, class_name, imports)


def emit_def(node, parent, parent_kind, is_test_file, defs, class_name, imports):
    name = (parent + "." if parent else "") + node.name
    start = min([node.lineno] + [d.lineno for d in node.decorator_list])
    end = getattr(node, "end_lineno", node.lineno)
    doc = ast.get_docstring(node) or ""
    if len(doc) > DOC_MAX:
        doc = doc[:DOC_MAX]
    d = {"n": name, "s": start, "e": end, "par": parent, "doc": doc,
         "ds": docstring_span(node.body)}
    if isinstance(node, ast.ClassDef):
        d["k"] = "class"
        # Generic bases (GroupBy[Series]) resolve through their class.
        d["bases"] = [unparse(b.value if isinstance(b, ast.Subscript) else b) for b in node.bases][:8]
        scan = FuncScan({}, imports)
        scan.class_body = True
        # class-level statements (not methods) may call things
        scan.scan(node.body)
        d["calls"] = scan.calls[:200]
        d["attrs"] = [[k, v] for k, v in scan.attrs.items()][:50]
        defs.append(d)
        walk_defs(node.body, name, "class", is_test_file, defs, name, imports)
        return
    if parent_kind == "class":
        kind = "method"
    else:
        kind = "function"
    if is_test_file and node.name.startswith("test"):
        kind = "test"
    d["k"] = kind
    params, types = params_of(node.args)
    d["params"] = params
    d["ret"] = unparse(node.returns)
    if class_name and params and params[0][0] in ("self", "cls"):
        types[params[0][0]] = "@self"
    scan = FuncScan(types, imports)
    scan.scan(list(node.decorator_list) + list(node.body))
    d["calls"] = scan.calls[:400]
    d["raises"] = scan.raises[:10]
    d["rets"] = scan.rets
    d["yield"] = scan.has_yield
    d["globals"] = scan.globals_written[:10]
    d["attrs"] = [[k, v] for k, v in scan.attrs.items()][:50]
    d["async"] = isinstance(node, ast.AsyncFunctionDef)
    defs.append(d)
    walk_defs(node.body, name, "function", is_test_file, defs, class_name, imports)


def resolve_relative(module, is_pkg, level, name):
    parts = module.split(".") if module else []
    if not is_pkg:
        parts = parts[:-1]
    if level > 1:
        parts = parts[: len(parts) - (level - 1)] if level - 1 <= len(parts) else []
    if name:
        parts = parts + name.split(".")
    return ".".join(parts)


def parse_one(item):
    path = item["p"]
    module = item.get("m", "")
    is_pkg = item.get("pkg", False)
    is_test = item.get("test", False)
    out = {"p": path, "doc": "", "imports": [], "calls": [], "defs": [], "err": ""}
    try:
        src = item["src"]
        if src.startswith("\ufeff"):  # a UTF-8 BOM is not Python syntax in a str
            src = src[1:]
        tree = ast.parse(src, filename=path)
    except SyntaxError as e:
        out["err"] = "SyntaxError: %s (line %s)" % (e.msg, e.lineno)
        return out
    except Exception as e:  # ValueError for NUL bytes, RecursionError, ...
        out["err"] = "%s: %s" % (type(e).__name__, e)
        return out
    doc = ast.get_docstring(tree) or ""
    out["doc"] = doc[:DOC_MAX]
    # Statements are scanned once: module level here, class and function
    # bodies by emit_def; every scan drops Import nodes into this sink.
    sink = []
    scan = FuncScan({}, sink)
    scan.scan(tree.body)
    out["calls"] = scan.calls[:400]
    defs = []
    try:
        walk_defs(tree.body, "", "module", is_test, defs, "", sink)
    except RecursionError:
        out["err"] = "RecursionError: nesting too deep"
    imports = []
    for node in sorted(sink, key=lambda n: (n.lineno, n.col_offset)):
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.asname:
                    imports.append([a.asname, a.name])
                else:
                    head = a.name.split(".")[0]
                    imports.append([head, head])
        else:
            base = node.module or ""
            if node.level:
                base = resolve_relative(module, is_pkg, node.level, base)
            for a in node.names:
                if a.name == "*":
                    imports.append(["*", base])
                    continue
                imports.append([a.asname or a.name, (base + "." if base else "") + a.name])
    out["imports"] = imports
    out["defs"] = defs
    return out


def main():
    inp = sys.stdin
    out = sys.stdout
    for line in inp:
        line = line.strip()
        if not line:
            continue
        try:
            item = json.loads(line)
        except Exception as e:
            out.write(json.dumps({"p": "", "err": "bad input: %s" % e}) + "\n")
            continue
        try:
            res = parse_one(item)
        except Exception as e:
            res = {"p": item.get("p", ""), "err": "%s: %s" % (type(e).__name__, e)}
        out.write(json.dumps(res) + "\n")
    out.flush()


if __name__ == "__main__":
    sys.setrecursionlimit(10000)
    main()
