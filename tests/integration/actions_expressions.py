"""GitHub Actions expressions, only the forms tjrender's workflow uses, with
the runner's semantics; anything else raises ExpressionError so the workflow
cannot drift past what its test understands.

Understood: 'string' literals, context lookups (github.*, steps.*, env.*,
runner.*, dotted, case-insensitive, missing -> null), the status functions
success() failure() cancelled() always(), ! == != && || and parentheses.

The runner (actions/runner v2.336.0) is the reference:
- == and != compare as in src/Sdk/DTExpressions2/Expressions2/EvaluationResult.cs
  (AbstractEqual / CoerceTypes): strings case-insensitively, null and booleans
  as numbers, a string against a number as a number (ExpressionUtility.cs:193
  ParseNumber: '' is 0);
- && and || return an operand, as in JavaScript;
- a step `if` without a status function means `success() && (...)`
  (src/Sdk/WorkflowParser/Conversion/WorkflowTemplateConverter.cs:1846-1860);
- success()/failure()/cancelled() read the job status
  (src/Runner.Worker/Expressions/SuccessFunction.cs, FailureFunction.cs).
"""
import math
import re

STATUS_FUNCTIONS = ("success", "failure", "cancelled", "always")
CONTEXTS = ("github", "steps", "env", "runner")


class ExpressionError(Exception):
    pass


_TOKEN = re.compile(r"""\s*(?:
    (?P<string>'(?:[^']|'')*')
  | (?P<op>==|!=|&&|\|\||!|\(|\)|\.)
  | (?P<name>[A-Za-z_][A-Za-z0-9_-]*)
  )""", re.VERBOSE)


def _tokens(text):
    out = []
    pos = 0
    text = text.rstrip()
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if not m:
            raise ExpressionError(f"cannot read {text[pos:]!r} in {text!r}")
        pos = m.end()
        kind = m.lastgroup
        out.append((kind, m.group(kind)))
    return out


class _Parser:
    """or := and ('||' and)*; and := cmp ('&&' cmp)*; cmp := unary (('=='|'!=') unary)*;
    unary := '!' unary | primary; primary := '(' or ')' | string | call | lookup
    (the runner's precedence: ! above == != above && above ||)."""

    def __init__(self, text):
        self.text = text
        self.tokens = _tokens(text)
        self.pos = 0

    def peek(self):
        return self.tokens[self.pos] if self.pos < len(self.tokens) else (None, None)

    def take(self, value=None):
        kind, got = self.peek()
        if kind is None or (value is not None and got != value):
            raise ExpressionError(f"expected {value or 'more'} in {self.text!r}")
        self.pos += 1
        return kind, got

    def parse(self):
        tree = self.parse_or()
        if self.pos != len(self.tokens):
            raise ExpressionError(f"unexpected {self.peek()[1]!r} in {self.text!r}")
        return tree

    def parse_or(self):
        node = self.parse_and()
        while self.peek() == ("op", "||"):
            self.take()
            node = ("||", node, self.parse_and())
        return node

    def parse_and(self):
        node = self.parse_cmp()
        while self.peek() == ("op", "&&"):
            self.take()
            node = ("&&", node, self.parse_cmp())
        return node

    def parse_cmp(self):
        node = self.parse_unary()
        while self.peek() in (("op", "=="), ("op", "!=")):
            op = self.take()[1]
            node = (op, node, self.parse_unary())
        return node

    def parse_unary(self):
        if self.peek() == ("op", "!"):
            self.take()
            return ("!", self.parse_unary())
        return self.parse_primary()

    def parse_primary(self):
        kind, value = self.take()
        if (kind, value) == ("op", "("):
            node = self.parse_or()
            self.take(")")
            return node
        if kind == "string":
            return ("literal", value[1:-1].replace("''", "'"))
        if kind != "name":
            raise ExpressionError(f"unexpected {value!r} in {self.text!r}")
        if self.peek() == ("op", "("):
            self.take()
            self.take(")")
            if value.lower() not in STATUS_FUNCTIONS:
                raise ExpressionError(f"function {value}() is not understood")
            return ("call", value.lower())
        if value.lower() not in CONTEXTS:
            raise ExpressionError(f"{value!r} is not a context this replay understands ({self.text!r})")
        path = [value]
        while self.peek() == ("op", "."):
            self.take()
            kind, part = self.take()
            if kind != "name":
                raise ExpressionError(f"expected a property name after '.' in {self.text!r}")
            path.append(part)
        return ("lookup", path)


def parse(text):
    return _Parser(text).parse()


def uses_status_function(tree):
    if tree[0] == "call":
        return True
    return any(isinstance(child, tuple) and uses_status_function(child) for child in tree[1:])


def _lookup(context, path):
    value = context
    for part in path:
        if not isinstance(value, dict):
            return None
        matches = [v for k, v in value.items() if k.lower() == part.lower()]
        value = matches[0] if matches else None
    return value


def _number(value):
    if value is None:
        return 0.0
    if isinstance(value, bool):
        return 1.0 if value else 0.0
    if isinstance(value, (int, float)):
        return float(value)
    if isinstance(value, str):
        s = value.strip()
        if not s:
            return 0.0
        try:
            return float(s)
        except ValueError:
            return math.nan
    return math.nan


def _kind(value):
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    return "object"


def equal(left, right):
    lk, rk = _kind(left), _kind(right)
    if lk == rk:
        if lk == "string":
            return left.lower() == right.lower()
        if lk == "number":
            return float(left) == float(right)  # NaN != NaN
        if lk == "object":
            return left is right
        return left == right
    if lk in ("boolean", "null"):
        return equal(_number(left), right)
    if rk in ("boolean", "null"):
        return equal(left, _number(right))
    if {lk, rk} == {"number", "string"}:
        return _number(left) == _number(right)
    return False


def truthy(value):
    if value is None:
        return False
    if isinstance(value, bool):
        return value
    if isinstance(value, (int, float)):
        return value != 0 and not math.isnan(value)
    if isinstance(value, str):
        return value != ""
    return True


def evaluate(tree, context, job_status=None):
    op = tree[0]
    if op == "literal":
        return tree[1]
    if op == "lookup":
        return _lookup(context, tree[1])
    if op == "call":
        if job_status is None:
            raise ExpressionError(f"{tree[1]}() outside a step's if")
        return {"success": job_status == "success", "failure": job_status == "failure",
                "cancelled": job_status == "cancelled", "always": True}[tree[1]]
    if op == "!":
        return not truthy(evaluate(tree[1], context, job_status))
    left = evaluate(tree[1], context, job_status)
    if op == "&&":
        return evaluate(tree[2], context, job_status) if truthy(left) else left
    if op == "||":
        return left if truthy(left) else evaluate(tree[2], context, job_status)
    right = evaluate(tree[2], context, job_status)
    return equal(left, right) if op == "==" else not equal(left, right)


_WHOLE = re.compile(r"^\s*\$\{\{(.*)\}\}\s*$", re.DOTALL)
_EMBEDDED = re.compile(r"\$\{\{(.*?)\}\}", re.DOTALL)


def step_condition(raw):
    """The parsed condition of a step's `if` (None: no `if`), with the
    runner's implicit success() added."""
    if raw is None:
        return ("call", "success")
    if not isinstance(raw, str):
        raise ExpressionError(f"if: {raw!r} is not a string")
    whole = _WHOLE.match(raw)
    text = whole.group(1) if whole else raw
    if "${{" in text:
        raise ExpressionError(f"if: {raw!r} mixes text and ${{{{ }}}} (always true on GitHub)")
    tree = parse(text)
    return tree if uses_status_function(tree) else ("&&", ("call", "success"), tree)


def to_string(value):
    """An expression's value in a string, as the runner converts it."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, (int, float, str)):
        return str(value)
    raise ExpressionError(f"{value!r} cannot be put in a string")


def substitute(text, context):
    """`text` with each ${{ expression }} replaced by its value."""
    if not isinstance(text, str):
        return text
    return _EMBEDDED.sub(lambda m: to_string(evaluate(parse(m.group(1)), context)), text)
