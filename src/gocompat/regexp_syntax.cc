// Go's regexp/syntax parser (regexp/syntax/parse.go, flags syntax.Perl:
// ClassNL | OneLine | PerlX | UnicodeGroups), rewritten as recursive
// descent with the same acceptance and error texts. Recursion is bounded by
// Go's own nesting limit (1000), so no input can exhaust the stack.
#include "gocompat/regexp_syntax.h"

#include <algorithm>

#include "gocompat/utf8.h"

namespace tjr::gocompat::regexp_syntax {
namespace {

// regexp/syntax's limits: repeat counts (parse.go maxRepeat... `{1001}`
// is refused) and nesting (maxHeight).
constexpr int kMaxRepeat = 1000;
constexpr int kMaxHeight = 1000;

struct Flags {
  bool fold = false;        // i
  bool one_line = true;     // not m: ^ and $ at the text's ends only
  bool dot_nl = false;      // s
  bool non_greedy = false;  // U
};

Diagnostic SyntaxError(std::string_view code, std::string_view expr) {
  return MakeError(Location{}, "", "error parsing regexp: " + std::string(code) + ": `" + std::string(expr) + "`");
}

bool IsAlnum(char32_t c) { return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'); }

int Unhex(char32_t c) {
  if (c >= '0' && c <= '9') return static_cast<int>(c - '0');
  if (c >= 'a' && c <= 'f') return static_cast<int>(c - 'a' + 10);
  if (c >= 'A' && c <= 'F') return static_cast<int>(c - 'A' + 10);
  return -1;
}

// unicode.SimpleFold's orbits for the letters tjrender folds: ASCII (with
// K/k/KELVIN SIGN and S/s/LONG S), Latin-1 and Latin Extended-A pairs.
// Other code points fold to themselves (see regexp.h).
std::vector<char32_t> FoldOrbit(char32_t c) {
  auto pair = [](char32_t upper) { return std::vector<char32_t>{upper, upper + 0x20}; };
  if (c == 'k' || c == 'K' || c == 0x212A) return {'K', 'k', 0x212A};
  if (c == 's' || c == 'S' || c == 0x17F) return {'S', 's', 0x17F};
  if (c >= 'A' && c <= 'Z') return pair(c);
  if (c >= 'a' && c <= 'z') return pair(c - 0x20);
  if (c == 0xFF || c == 0x178) return {0xFF, 0x178};
  if (c >= 0xC0 && c <= 0xDE && c != 0xD7) return pair(c);
  if (c >= 0xE0 && c <= 0xFE && c != 0xF7) return pair(c - 0x20);
  if (c >= 0x100 && c <= 0x17F && c != 0x130 && c != 0x131 && c != 0x138 && c != 0x149) {
    // Latin Extended-A: upper/lower pairs at even/odd code points, except
    // 0x139-0x148 and 0x179-0x17E which pair odd/even.
    const bool odd_upper = (c >= 0x139 && c <= 0x148) || (c >= 0x179 && c <= 0x17E);
    const bool upper = odd_upper ? (c % 2 == 1) : (c % 2 == 0);
    return upper ? std::vector<char32_t>{c, c + 1} : std::vector<char32_t>{c - 1, c};
  }
  return {c};
}

void Normalize(std::vector<RuneRange>* ranges) {
  std::sort(ranges->begin(), ranges->end(), [](const RuneRange& a, const RuneRange& b) { return a.lo < b.lo; });
  std::vector<RuneRange> merged;
  for (const RuneRange& r : *ranges) {
    if (!merged.empty() && r.lo <= merged.back().hi + 1) {
      merged.back().hi = std::max(merged.back().hi, r.hi);
    } else {
      merged.push_back(r);
    }
  }
  *ranges = std::move(merged);
}

void AddRange(std::vector<RuneRange>* ranges, char32_t lo, char32_t hi, bool fold) {
  ranges->push_back({lo, hi});
  if (!fold) return;
  // Only code points below 0x180 and KELVIN SIGN have other cases here.
  for (char32_t c = lo; c <= std::min<char32_t>(hi, 0x17F); ++c) {
    for (char32_t other : FoldOrbit(c)) ranges->push_back({other, other});
  }
  if (lo <= 0x212A && 0x212A <= hi) {
    for (char32_t other : FoldOrbit(0x212A)) ranges->push_back({other, other});
  }
}

std::vector<RuneRange> Negate(const std::vector<RuneRange>& ranges) {
  std::vector<RuneRange> out;
  char32_t next = 0;
  for (const RuneRange& r : ranges) {
    if (r.lo > next) out.push_back({next, r.lo - 1});
    next = r.hi + 1;
  }
  if (next <= kMaxRune) out.push_back({next, kMaxRune});
  return out;
}

// A named group's ranges (POSIX [:name:] and Perl \d \s \w), unnegated.
bool NamedGroup(std::string_view name, std::vector<RuneRange>* ranges) {
  struct Entry {
    std::string_view name;
    std::vector<RuneRange> ranges;
  };
  static const std::vector<Entry> kGroups = {
      {"alnum", {{'0', '9'}, {'A', 'Z'}, {'a', 'z'}}},
      {"alpha", {{'A', 'Z'}, {'a', 'z'}}},
      {"ascii", {{0, 0x7F}}},
      {"blank", {{'\t', '\t'}, {' ', ' '}}},
      {"cntrl", {{0, 0x1F}, {0x7F, 0x7F}}},
      {"digit", {{'0', '9'}}},
      {"graph", {{'!', '~'}}},
      {"lower", {{'a', 'z'}}},
      {"print", {{' ', '~'}}},
      {"punct", {{'!', '/'}, {':', '@'}, {'[', '`'}, {'{', '~'}}},
      {"space", {{'\t', '\r'}, {' ', ' '}}},
      {"upper", {{'A', 'Z'}}},
      {"word", {{'0', '9'}, {'A', 'Z'}, {'_', '_'}, {'a', 'z'}}},
      {"xdigit", {{'0', '9'}, {'A', 'F'}, {'a', 'f'}}},
      // Perl classes (regexp/syntax/perl_groups.go).
      {"\\d", {{'0', '9'}}},
      {"\\s", {{'\t', '\n'}, {'\f', '\r'}, {' ', ' '}}},
      {"\\w", {{'0', '9'}, {'A', 'Z'}, {'_', '_'}, {'a', 'z'}}},
  };
  for (const Entry& entry : kGroups) {
    if (entry.name == name) {
      *ranges = entry.ranges;
      return true;
    }
  }
  return false;
}

class Parser {
 public:
  explicit Parser(std::string_view pattern) : whole_(pattern), text_(pattern) {}

  Result<Parsed> Run() {
    Flags flags;
    Result<Node> root = Alternation(&flags, 0);
    if (!root.ok()) return root.take_error();
    if (!text_.empty()) return SyntaxError("unexpected )", whole_);  // only ')' stops the top level
    Parsed parsed;
    parsed.root = std::move(*root);
    parsed.captures = captures_;
    parsed.names = std::move(names_);
    return parsed;
  }

 private:
  // The next code point of text_, consumed; an invalid byte is Go's
  // ErrInvalidUTF8 (naming the rest of the pattern).
  Result<char32_t> NextRune() {
    Rune rune = DecodeRune(text_);
    if (IsInvalid(rune)) return SyntaxError("invalid UTF-8", text_);
    text_.remove_prefix(rune.size);
    return rune.value;
  }

  Result<Node> Alternation(Flags* flags, int depth) {
    if (depth > kMaxHeight) return SyntaxError("expression nests too deeply", whole_);
    std::vector<Node> branches;
    for (;;) {
      Result<Node> branch = Concatenation(flags, depth);
      if (!branch.ok()) return branch.take_error();
      branches.push_back(std::move(*branch));
      if (text_.empty() || text_.front() != '|') break;
      text_.remove_prefix(1);
    }
    if (branches.size() == 1) return std::move(branches.front());
    Node node;
    node.op = Op::kAlternate;
    node.subs = std::move(branches);
    return node;
  }

  Result<Node> Concatenation(Flags* flags, int depth) {
    std::vector<Node> items;
    std::string_view last_repeat;  // the previous repeat operator, when nothing came between
    while (!text_.empty() && text_.front() != '|' && text_.front() != ')') {
      const std::string_view before = text_;
      const char c = text_.front();
      int min = -1;
      int max = -1;
      bool repeat = false;
      if (c == '*' || c == '+' || c == '?') {
        text_.remove_prefix(1);
        min = c == '+' ? 1 : 0;
        max = c == '?' ? 1 : -1;
        repeat = true;
      } else if (c == '{') {
        std::string_view after = text_;
        if (RepeatCount(&after, &min, &max)) {
          const std::string_view op = before.substr(0, before.size() - after.size());
          if (min < 0 || min > kMaxRepeat || max > kMaxRepeat || (max >= 0 && min > max)) {
            return SyntaxError("invalid repeat count", op);
          }
          text_ = after;
          repeat = true;
        }
      }
      if (repeat) {
        bool greedy = !flags->non_greedy;
        if (!text_.empty() && text_.front() == '?') {
          text_.remove_prefix(1);
          greedy = !greedy;
        }
        const std::string_view op = before.substr(0, before.size() - text_.size());
        if (!last_repeat.empty()) {
          return SyntaxError("invalid nested repetition operator",
                             last_repeat.substr(0, last_repeat.size() - text_.size()));
        }
        if (items.empty()) return SyntaxError("missing argument to repetition operator", op);
        Node node;
        node.op = Op::kRepeat;
        node.min = min;
        node.max = max;
        node.greedy = greedy;
        node.subs.push_back(std::move(items.back()));
        if (c == '{' && (min >= 2 || max >= 2) && !RepeatIsValid(node, kMaxRepeat)) {
          return SyntaxError("invalid repeat count", op);
        }
        items.back() = std::move(node);
        last_repeat = before;
        continue;
      }
      last_repeat = {};
      if (c == '(') {
        Status group = Group(flags, depth, &items);
        if (!group.ok()) return group.take_error();
        continue;
      }
      Status atom = Atom(*flags, &items);
      if (!atom.ok()) return atom.take_error();
    }
    if (items.empty()) return Node{};
    if (items.size() == 1) return std::move(items.front());
    Node node;
    node.op = Op::kConcat;
    node.subs = std::move(items);
    return node;
  }

  // regexp/syntax's repeatIsValid: nested counts multiply to at most n.
  static bool RepeatIsValid(const Node& node, int n) {
    if (node.op == Op::kRepeat) {
      int m = node.max;
      if (m == 0) return true;
      if (m < 0) m = node.min;
      if (m > n) return false;
      if (m > 0) n /= m;
    }
    return std::all_of(node.subs.begin(), node.subs.end(), [&](const Node& sub) { return RepeatIsValid(sub, n); });
  }

  // {n}, {n,}, {n,m} at the front of *text; false (a literal '{') otherwise.
  static bool RepeatCount(std::string_view* text, int* min, int* max) {
    std::string_view t = *text;
    t.remove_prefix(1);
    auto number = [&](int* out) {
      if (t.empty() || t.front() < '0' || t.front() > '9') return false;
      if (t.size() >= 2 && t[0] == '0' && t[1] >= '0' && t[1] <= '9') return false;  // no leading zeros
      long value = 0;
      while (!t.empty() && t.front() >= '0' && t.front() <= '9') {
        if (value >= 100000000) value = 100000000;  // Go's -1: over the limit either way
        else value = value * 10 + (t.front() - '0');
        t.remove_prefix(1);
      }
      *out = value > kMaxRepeat ? kMaxRepeat + 1 : static_cast<int>(value);
      return true;
    };
    if (!number(min)) return false;
    if (t.empty()) return false;
    if (t.front() == ',') {
      t.remove_prefix(1);
      if (t.empty()) return false;
      if (t.front() == '}') {
        *max = -1;
      } else if (!number(max)) {
        return false;
      }
    } else {
      *max = *min;
    }
    if (t.empty() || t.front() != '}') return false;
    t.remove_prefix(1);
    *text = t;
    return true;
  }

  Status Group(Flags* flags, int depth, std::vector<Node>* items) {
    const std::string_view start = text_;
    text_.remove_prefix(1);  // (
    Flags inner = *flags;
    bool capture = true;
    std::string name;
    if (!text_.empty() && text_.front() == '?') {
      if (text_.size() > 2 && (text_.substr(0, 3) == "?P<" || text_.substr(0, 2) == "?<")) {
        const std::size_t begin = text_[1] == 'P' ? 3 : 2;
        const std::size_t end = text_.find('>');
        if (end == std::string_view::npos) {
          if (!IsValidUtf8(text_)) return SyntaxError("invalid UTF-8", text_);
          return SyntaxError("invalid named capture", start);
        }
        name = std::string(text_.substr(begin, end - begin));
        const std::string_view capture_text = start.substr(0, end + 2);
        if (name.empty() || !std::all_of(name.begin(), name.end(), [](char ch) {
              return IsAlnum(static_cast<unsigned char>(ch)) || ch == '_';
            })) {
          return SyntaxError("invalid named capture", capture_text);
        }
        text_.remove_prefix(end + 1);
      } else {
        // Flags, then ')' (for the rest of this group) or ':' (a group).
        text_.remove_prefix(1);
        Flags set = *flags;
        int sign = 1;
        bool saw_flag = false;
        for (;;) {
          if (text_.empty()) return SyntaxError("invalid or unsupported Perl syntax", start);
          Result<char32_t> ch = NextRune();
          if (!ch.ok()) return ch.take_error();
          const char32_t c = *ch;
          const bool on = sign > 0;
          if (c == 'i') {
            set.fold = on;
          } else if (c == 'm') {
            set.one_line = !on;
          } else if (c == 's') {
            set.dot_nl = on;
          } else if (c == 'U') {
            set.non_greedy = on;
          } else if (c == '-' && sign > 0) {
            sign = -1;
            saw_flag = false;
            continue;
          } else if ((c == ':' || c == ')') && (sign > 0 || saw_flag)) {
            if (c == ')') {
              *flags = set;
              return Ok();
            }
            inner = set;
            capture = false;
            break;
          } else {
            return SyntaxError("invalid or unsupported Perl syntax", start.substr(0, start.size() - text_.size()));
          }
          saw_flag = true;
        }
      }
    }
    int index = 0;
    if (capture) {
      index = ++captures_;
      names_.push_back(name);
    }
    Result<Node> body = Alternation(&inner, depth + 1);
    if (!body.ok()) return body.take_error();
    if (text_.empty() || text_.front() != ')') return SyntaxError("missing closing )", whole_);
    text_.remove_prefix(1);
    if (!capture) {
      items->push_back(std::move(*body));
      return Ok();
    }
    Node node;
    node.op = Op::kCapture;
    node.cap = index;
    node.subs.push_back(std::move(*body));
    items->push_back(std::move(node));
    return Ok();
  }

  static Node Literal(char32_t c, bool fold) {
    Node node;
    node.op = Op::kClass;
    AddRange(&node.ranges, c, c, fold);
    Normalize(&node.ranges);
    return node;
  }

  static Node Simple(Op op) {
    Node node;
    node.op = op;
    return node;
  }

  Status Atom(const Flags& flags, std::vector<Node>* items) {
    const char c = text_.front();
    switch (c) {
      case '[': {
        Result<Node> cls = Class(flags);
        if (!cls.ok()) return cls.take_error();
        items->push_back(std::move(*cls));
        return Ok();
      }
      case '.':
        text_.remove_prefix(1);
        items->push_back(Simple(flags.dot_nl ? Op::kAnyChar : Op::kAnyCharNotNl));
        return Ok();
      case '^':
        text_.remove_prefix(1);
        items->push_back(Simple(flags.one_line ? Op::kBeginText : Op::kBeginLine));
        return Ok();
      case '$':
        text_.remove_prefix(1);
        items->push_back(Simple(flags.one_line ? Op::kEndText : Op::kEndLine));
        return Ok();
      case '\\': break;
      default: {
        Result<char32_t> rune = NextRune();
        if (!rune.ok()) return rune.take_error();
        items->push_back(Literal(*rune, flags.fold));
        return Ok();
      }
    }
    // Escapes.
    if (text_.size() < 2) return SyntaxError("trailing backslash at end of expression", "");
    switch (text_[1]) {
      case 'A': text_.remove_prefix(2); items->push_back(Simple(Op::kBeginText)); return Ok();
      case 'z': text_.remove_prefix(2); items->push_back(Simple(Op::kEndText)); return Ok();
      case 'b': text_.remove_prefix(2); items->push_back(Simple(Op::kWordBoundary)); return Ok();
      case 'B': text_.remove_prefix(2); items->push_back(Simple(Op::kNoWordBoundary)); return Ok();
      case 'Q': {
        // Literal text up to \E or the end.
        text_.remove_prefix(2);
        std::string_view literal = text_;
        const std::size_t end = text_.find("\\E");
        if (end != std::string_view::npos) {
          literal = text_.substr(0, end);
          text_.remove_prefix(end + 2);
        } else {
          text_ = {};
        }
        while (!literal.empty()) {
          Rune rune = DecodeRune(literal);
          if (IsInvalid(rune)) return SyntaxError("invalid UTF-8", literal);
          items->push_back(Literal(rune.value, flags.fold));
          literal.remove_prefix(rune.size);
        }
        return Ok();
      }
      case 'p':
      case 'P':
        return MakeError(Location{}, "", "error parsing regexp: Unicode classes (\\p, \\P) are not supported by "
                                         "tjrender: `" + std::string(text_.substr(0, 2)) + "`");
      default: break;
    }
    Node node;
    node.op = Op::kClass;
    if (PerlClass(flags, &node.ranges)) {
      items->push_back(std::move(node));
      return Ok();
    }
    Result<char32_t> rune = Escape();
    if (!rune.ok()) return rune.take_error();
    items->push_back(Literal(*rune, flags.fold));
    return Ok();
  }

  // \d \D \s \S \w \W at the front of text_, consumed, into `ranges`.
  bool PerlClass(const Flags& flags, std::vector<RuneRange>* ranges) {
    if (text_.size() < 2 || text_[0] != '\\') return false;
    const char c = text_[1];
    const char lower = static_cast<char>(c | 0x20);
    if (lower != 'd' && lower != 's' && lower != 'w') return false;
    std::vector<RuneRange> group;
    NamedGroup(std::string("\\") + lower, &group);
    std::vector<RuneRange> expanded;
    for (const RuneRange& r : group) AddRange(&expanded, r.lo, r.hi, flags.fold);
    Normalize(&expanded);
    if (c != lower) expanded = Negate(expanded);
    ranges->insert(ranges->end(), expanded.begin(), expanded.end());
    text_.remove_prefix(2);
    return true;
  }

  // A single-rune escape at the front of text_ (parse.go parseEscape).
  Result<char32_t> Escape() {
    const std::string_view start = text_;
    text_.remove_prefix(1);  // backslash
    if (text_.empty()) return SyntaxError("trailing backslash at end of expression", "");
    Result<char32_t> first = NextRune();
    if (!first.ok()) return first.take_error();
    const char32_t c = *first;
    auto invalid = [&]() { return SyntaxError("invalid escape sequence", start.substr(0, start.size() - text_.size())); };
    if (c < 0x80 && !IsAlnum(c)) return c;  // escaped punctuation is itself
    auto octal = [&](char32_t value) -> char32_t {
      for (int i = 1; i < 3 && !text_.empty() && text_.front() >= '0' && text_.front() <= '7'; ++i) {
        value = value * 8 + static_cast<char32_t>(text_.front() - '0');
        text_.remove_prefix(1);
      }
      return value;
    };
    switch (c) {
      case '1': case '2': case '3': case '4': case '5': case '6': case '7':
        // A single non-zero digit is a backreference, which Go refuses.
        if (text_.empty() || text_.front() < '0' || text_.front() > '7') return invalid();
        return octal(c - '0');
      case '0': return octal(0);
      case 'x': {
        if (text_.empty()) return invalid();
        Result<char32_t> next = NextRune();
        if (!next.ok()) return next.take_error();
        if (*next == '{') {
          char32_t value = 0;
          int digits = 0;
          for (;;) {
            if (text_.empty()) return invalid();
            Result<char32_t> digit = NextRune();
            if (!digit.ok()) return digit.take_error();
            if (*digit == '}') break;
            const int v = Unhex(*digit);
            if (v < 0) return invalid();
            value = value * 16 + static_cast<char32_t>(v);
            if (value > kMaxRune) return invalid();
            ++digits;
          }
          if (digits == 0) return invalid();
          return value;
        }
        const int x = Unhex(*next);
        if (text_.empty()) return invalid();
        Result<char32_t> second = NextRune();
        if (!second.ok()) return second.take_error();
        const int y = Unhex(*second);
        if (x < 0 || y < 0) return invalid();
        return static_cast<char32_t>(x * 16 + y);
      }
      case 'a': return 7;
      case 'f': return '\f';
      case 'n': return '\n';
      case 'r': return '\r';
      case 't': return '\t';
      case 'v': return '\v';
      default: return invalid();
    }
  }

  // [...] at the front of text_ (parse.go parseClass).
  Result<Node> Class(const Flags& flags) {
    const std::string_view whole_class = text_;
    text_.remove_prefix(1);
    Node node;
    node.op = Op::kClass;
    std::vector<RuneRange>& ranges = node.ranges;
    bool negate = false;
    if (!text_.empty() && text_.front() == '^') {
      negate = true;  // ClassNL: a negated class may match '\n'
      text_.remove_prefix(1);
    }
    bool first = true;
    while (text_.empty() || text_.front() != ']' || first) {
      first = false;
      if (text_.size() > 2 && text_[0] == '[' && text_[1] == ':') {
        const std::size_t close = text_.find(":]", 2);
        if (close != std::string_view::npos) {
          const std::string_view name_text = text_.substr(0, close + 2);
          std::string_view name = name_text.substr(2, name_text.size() - 4);
          const bool negated = !name.empty() && name.front() == '^';
          if (negated) name.remove_prefix(1);
          std::vector<RuneRange> group;
          if (name.empty() || name.front() == '\\' || !NamedGroup(name, &group)) {
            return SyntaxError("invalid character class range", name_text);
          }
          std::vector<RuneRange> expanded;
          for (const RuneRange& r : group) AddRange(&expanded, r.lo, r.hi, flags.fold);
          Normalize(&expanded);
          if (negated) expanded = Negate(expanded);
          ranges.insert(ranges.end(), expanded.begin(), expanded.end());
          text_.remove_prefix(close + 2);
          continue;
        }
      }
      if (text_.size() >= 2 && text_[0] == '\\' && (text_[1] == 'p' || text_[1] == 'P')) {
        return MakeError(Location{}, "", "error parsing regexp: Unicode classes (\\p, \\P) are not supported by "
                                         "tjrender: `" + std::string(text_.substr(0, 2)) + "`");
      }
      if (PerlClass(flags, &ranges)) continue;
      const std::string_view range_text = text_;
      Result<char32_t> lo = ClassChar(whole_class);
      if (!lo.ok()) return lo.take_error();
      char32_t hi = *lo;
      if (text_.size() >= 2 && text_[0] == '-' && text_[1] != ']') {
        text_.remove_prefix(1);
        Result<char32_t> high = ClassChar(whole_class);
        if (!high.ok()) return high.take_error();
        hi = *high;
        if (hi < *lo) {
          return SyntaxError("invalid character class range", range_text.substr(0, range_text.size() - text_.size()));
        }
      }
      AddRange(&ranges, *lo, hi, flags.fold);
    }
    text_.remove_prefix(1);  // ]
    Normalize(&ranges);
    if (negate) ranges = Negate(ranges);
    if (ranges.empty()) node.op = Op::kNoMatch;
    return node;
  }

  Result<char32_t> ClassChar(std::string_view whole_class) {
    if (text_.empty()) return SyntaxError("missing closing ]", whole_class);
    if (text_.front() == '\\') return Escape();
    return NextRune();
  }

  std::string_view whole_;
  std::string_view text_;
  int captures_ = 0;
  std::vector<std::string> names_;
};

}  // namespace

Result<Parsed> Parse(std::string_view pattern) { return Parser(pattern).Run(); }

}  // namespace tjr::gocompat::regexp_syntax
