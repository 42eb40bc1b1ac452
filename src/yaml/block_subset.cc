#include "yaml/block_subset.h"

#include <cstddef>
#include <cstring>
#include <vector>

namespace tjr::yaml::input {
namespace {

// libyaml's limit on implicit keys (see reader.cc's CheckKeyLength): longer
// keys are left to the full reader.
constexpr std::size_t kMaxSimpleKey = 1024;

// Characters a plain scalar may not start with here. YAML allows some of
// them in some places ("-1", "?x"); only '-' before a non-space is taken.
bool IsIndicator(char c) {
  switch (c) {
    case '-': case '?': case ':': case ',': case '[': case ']': case '{': case '}':
    case '#': case '&': case '*': case '!': case '|': case '>': case '\'': case '"':
    case '%': case '@': case '`':
      return true;
    default:
      return false;
  }
}

// One line with content (blank and comment-only lines are dropped).
struct Line {
  std::size_t start;   // offset of the line in the text
  std::size_t begin;   // offset of its first non-space character
  std::size_t end;     // offset of its end (the '\n' or the end of the text)
  std::uint32_t number;  // 0-based
};

class Parser {
 public:
  Parser(std::string_view text, const std::string* file, std::uint32_t first_line,
         TreeBuilder& builder)
      : text_(text), file_(file), first_line_(first_line), builder_(builder) {}

  bool Run() {
    if (!SplitLines() || lines_.empty()) return false;
    const Line& first = lines_[0];
    if (first.begin != first.start) return false;  // the root starts at column 1
    bool ok;
    if (IsDash(first, first.begin)) {
      ok = Sequence(first.begin);
    } else if (KeyEnd(first, first.begin) != kNone) {
      ok = Mapping(first.begin);
    } else {
      return false;
    }
    return ok && next_ == lines_.size();
  }

 private:
  static constexpr std::size_t kNone = static_cast<std::size_t>(-1);

  // Whether [from, to) is printable ASCII (no tabs, CR, controls or
  // non-ASCII bytes), eight bytes a step.
  bool Printable(std::size_t from, std::size_t to) const {
    constexpr std::uint64_t kOnes = 0x0101010101010101ULL;
    constexpr std::uint64_t kHighs = 0x8080808080808080ULL;
    for (; from + 8 <= to; from += 8) {
      std::uint64_t word;
      std::memcpy(&word, text_.data() + from, sizeof word);
      const std::uint64_t below_space = (word - kOnes * 0x20) & ~word & kHighs;
      const std::uint64_t del = ((word ^ (kOnes * 0x7F)) - kOnes) & ~(word ^ (kOnes * 0x7F)) & kHighs;
      if (((word & kHighs) | below_space | del) != 0) return false;
    }
    for (; from < to; ++from) {
      if (text_[from] < 0x20 || text_[from] > 0x7e) return false;
    }
    return true;
  }

  bool SplitLines() {
    std::uint32_t number = 0;
    std::size_t start = 0;
    while (start <= text_.size()) {
      const std::size_t newline = text_.find('\n', start);
      const std::size_t end = newline == std::string_view::npos ? text_.size() : newline;
      if (!Printable(start, end)) return false;
      std::size_t begin = start;
      while (begin < end && text_[begin] == ' ') ++begin;
      if (begin < end && text_[begin] != '#') {
        if (begin == start) {
          const std::string_view head = text_.substr(start, end - start);
          if (head.starts_with("---") || head.starts_with("...") || head[0] == '%') return false;
        }
        lines_.push_back(Line{start, begin, end, number});
      }
      if (end == text_.size()) break;
      start = end + 1;
      ++number;
    }
    return true;
  }

  std::size_t Column(const Line& line, std::size_t at) const { return at - line.start; }
  NodeStart At(const Line& line, std::size_t at) const {
    return NodeStart{Location{file_, first_line_ + line.number,
                              static_cast<std::uint32_t>(Column(line, at) + 1)},
                     {}};
  }

  bool IsDash(const Line& line, std::size_t at) const {
    return text_[at] == '-' && (at + 1 == line.end || text_[at + 1] == ' ');
  }

  // Where the ':' of a plain key starting at `at` is, or kNone when the
  // line holds no key there (or one this subset leaves to libfyaml).
  std::size_t KeyEnd(const Line& line, std::size_t at) const {
    if (IsIndicator(text_[at])) return kNone;
    for (std::size_t i = at; i < line.end; ++i) {
      const char c = text_[i];
      if (c == '#') return kNone;
      if (c != ':') continue;
      if (i + 1 < line.end && text_[i + 1] != ' ') return kNone;  // "a:b" keys are left out
      if (text_[i - 1] == ' ' || i - at > kMaxSimpleKey) return kNone;
      return i;
    }
    return kNone;
  }

  // The first line after the current one is more indented than `column`.
  bool NextIsDeeper(std::size_t column) const {
    return next_ < lines_.size() && Column(lines_[next_], lines_[next_].begin) > column;
  }

  // A one-line scalar at `at`, to the end of the line or its comment.
  bool Scalar(const Line& line, std::size_t at) {
    const char c = text_[at];
    std::string_view value;
    std::size_t after;
    bool plain = false;
    if (c == '"' || c == '\'') {
      std::size_t close = at + 1;
      while (close < line.end && text_[close] != c) {
        if (text_[close] == '\\' && c == '"') return false;  // escapes are libfyaml's
        ++close;
      }
      if (close == line.end) return false;
      if (c == '\'' && close + 1 < line.end && text_[close + 1] == '\'') return false;  // ''
      value = text_.substr(at + 1, close - at - 1);
      after = close + 1;
      if (after < line.end && text_[after] != ' ') return false;
      while (after < line.end && text_[after] == ' ') ++after;
      if (after < line.end && text_[after] != '#') return false;
    } else {
      if (IsIndicator(c) && !(c == '-' && at + 1 < line.end && text_[at + 1] != ' ')) return false;
      std::size_t end = at;
      while (end < line.end && !(text_[end] == '#' && text_[end - 1] == ' ')) {
        if (text_[end] == ':' && (end + 1 == line.end || text_[end + 1] == ' ')) return false;
        ++end;
      }
      while (text_[end - 1] == ' ') --end;
      value = text_.substr(at, end - at);
      plain = true;
    }
    return builder_.Scalar(ScalarInput{value, {}, plain}, At(line, at));
  }

  // A block mapping whose first key is at `at` on the current line; its
  // other keys are the lines indented to the same column.
  bool Mapping(std::size_t at) {
    const std::size_t column = Column(lines_[next_], at);
    if (!builder_.StartMapping(At(lines_[next_], at))) return false;
    while (true) {
      const Line& line = lines_[next_];
      const std::size_t colon = KeyEnd(line, at);
      if (colon == kNone) return false;
      if (!builder_.Scalar(ScalarInput{text_.substr(at, colon - at), {}, true}, At(line, at))) {
        return false;
      }
      std::size_t value = colon + 1;
      while (value < line.end && text_[value] == ' ') ++value;
      ++next_;
      if (value == line.end || text_[value] == '#') {
        // The value is the block below, or a sequence at the key's column.
        if (next_ == lines_.size()) return false;  // an empty value
        const Line& below = lines_[next_];
        const std::size_t indent = Column(below, below.begin);
        if (indent > column) {
          if (!Block(below.begin)) return false;
        } else if (indent == column && IsDash(below, below.begin)) {
          if (!Sequence(below.begin)) return false;
        } else {
          return false;  // an empty value
        }
      } else {
        // "a: b: c" is refused by Scalar, which takes no ": " in a plain scalar.
        if (IsDash(line, value) || !Scalar(line, value)) return false;
        if (NextIsDeeper(column)) return false;  // a continuation line
      }
      if (next_ == lines_.size()) break;
      const Line& following = lines_[next_];
      const std::size_t indent = Column(following, following.begin);
      if (indent < column) break;
      if (indent > column || IsDash(following, following.begin)) return false;
      at = following.begin;
    }
    return builder_.End();
  }

  // A block sequence whose first '-' is at `at` on the current line.
  bool Sequence(std::size_t at) {
    const std::size_t column = Column(lines_[next_], at);
    if (!builder_.StartSequence(At(lines_[next_], at))) return false;
    while (true) {
      const Line& line = lines_[next_];
      std::size_t item = at + 1;
      while (item < line.end && text_[item] == ' ') ++item;
      if (item == line.end || text_[item] == '#') {
        // An empty item: null, or the block below when that is deeper.
        // libfyaml 0.7.12 refuses a null item in a sequence at its
        // parent key's column ("did not find expected node content"),
        // which goyaml reads.
        const NodeStart start = At(line, at);
        ++next_;
        if (NextIsDeeper(column)) {
          if (!Block(lines_[next_].begin)) return false;
        } else if (!builder_.Scalar(ScalarInput{{}, {}, true}, start)) {
          return false;
        }
      } else if (IsDash(line, item)) {
        return false;
      } else if (KeyEnd(line, item) != kNone) {
        if (!Mapping(item)) return false;
      } else {
        if (!Scalar(line, item)) return false;
        ++next_;
        if (NextIsDeeper(column)) return false;
      }
      if (next_ == lines_.size()) break;
      const Line& following = lines_[next_];
      const std::size_t indent = Column(following, following.begin);
      if (indent < column) break;
      if (indent > column) return false;
      if (!IsDash(following, following.begin)) break;  // the next key of the mapping around
      at = following.begin;
    }
    return builder_.End();
  }

  // The block value starting at `at` on the current line.
  bool Block(std::size_t at) {
    const Line& line = lines_[next_];
    if (IsDash(line, at)) return Sequence(at);
    if (KeyEnd(line, at) != kNone) return Mapping(at);
    return false;  // a scalar on a line of its own
  }

  std::string_view text_;
  const std::string* file_;
  std::uint32_t first_line_;
  TreeBuilder& builder_;
  std::vector<Line> lines_;
  std::size_t next_ = 0;
};

}  // namespace

bool BuildBlockSubset(std::string_view text, const std::string* file, std::uint32_t first_line,
                      TreeBuilder& builder, doc::Node* root) {
  if (!Parser(text, file, first_line, builder).Run() || !builder.complete()) return false;
  *root = builder.TakeRoot();
  return true;
}

}  // namespace tjr::yaml::input
