#include "source/glob.h"

#include <bitset>
#include <cctype>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace tjr::source {
namespace {

std::vector<std::string> Split(std::string_view text) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t slash = text.find('/', start);
    if (slash == std::string_view::npos) slash = text.size();
    if (slash > start) parts.emplace_back(text.substr(start, slash - start));
    start = slash + 1;
  }
  return parts;
}

bool InClass(std::string_view name, unsigned char c) {
  if (c >= 0x80) return false;  // the C locale classifies ASCII only
  if (name == "alnum") return std::isalnum(c) != 0;
  if (name == "alpha") return std::isalpha(c) != 0;
  if (name == "blank") return c == ' ' || c == '\t';
  if (name == "cntrl") return std::iscntrl(c) != 0;
  if (name == "digit") return std::isdigit(c) != 0;
  if (name == "graph") return std::isgraph(c) != 0;
  if (name == "lower") return std::islower(c) != 0;
  if (name == "print") return std::isprint(c) != 0;
  if (name == "punct") return std::ispunct(c) != 0;
  if (name == "space") return std::isspace(c) != 0;
  if (name == "upper") return std::isupper(c) != 0;
  if (name == "xdigit") return std::isxdigit(c) != 0;
  return false;
}

bool IsClassName(std::string_view name) {
  for (const char* known : {"alnum", "alpha", "blank", "cntrl", "digit", "graph", "lower", "print",
                            "punct", "space", "upper", "xdigit"}) {
    if (name == known) return true;
  }
  return false;
}

// A bracket expression opening at pattern[open] == '[': the bytes it
// matches and the position after its ']', or nothing when it is not
// terminated (it then reads as a literal '['); `never` when it holds an
// unknown class name or an ill-formed element (fnmatch then matches
// nothing).
struct BracketSet {
  std::bitset<256> bytes;
  std::size_t end = 0;
  bool never = false;
};

std::optional<BracketSet> ParseBracket(std::string_view pattern, std::size_t open) {
  BracketSet set;
  std::size_t p = open + 1;
  const bool negate = p < pattern.size() && (pattern[p] == '!' || pattern[p] == '^');
  if (negate) ++p;
  // One member: a byte (escaped or a [.x.] / [=x=] symbol), or a class.
  auto member = [&](std::size_t* at, unsigned char* byte) -> std::optional<std::string_view> {
    if (*at >= pattern.size()) return std::nullopt;
    const char c = pattern[*at];
    if (c == '\\') {
      if (*at + 1 >= pattern.size()) return std::nullopt;
      *byte = static_cast<unsigned char>(pattern[*at + 1]);
      *at += 2;
      return std::string_view();
    }
    if (c == '[' && *at + 1 < pattern.size() && (pattern[*at + 1] == '.' || pattern[*at + 1] == '=' ||
                                                 pattern[*at + 1] == ':')) {
      const char kind = pattern[*at + 1];
      const std::size_t close = pattern.find(std::string{kind, ']'}, *at + 2);
      if (close == std::string_view::npos) return std::nullopt;
      std::string_view inner = pattern.substr(*at + 2, close - *at - 2);
      *at = close + 2;
      if (kind == ':') return inner.empty() ? std::string_view(":") : inner;
      if (inner.size() != 1) set.never = true;  // the C locale has one-byte symbols only
      *byte = inner.empty() ? 0 : static_cast<unsigned char>(inner[0]);
      return std::string_view();
    }
    *byte = static_cast<unsigned char>(c);
    ++*at;
    return std::string_view();
  };
  bool first = true;
  for (;;) {
    if (p >= pattern.size()) return std::nullopt;
    if (pattern[p] == ']' && !first) break;
    first = false;
    unsigned char low = 0;
    std::optional<std::string_view> what = member(&p, &low);
    if (!what) return std::nullopt;
    if (!what->empty()) {  // a class
      if (!IsClassName(*what)) set.never = true;
      for (int c = 0; c < 256; ++c) {
        if (InClass(*what, static_cast<unsigned char>(c))) set.bytes.set(c);
      }
      continue;
    }
    if (p + 1 < pattern.size() && pattern[p] == '-' && pattern[p + 1] != ']') {
      std::size_t q = p + 1;
      unsigned char high = 0;
      std::optional<std::string_view> end = member(&q, &high);
      if (!end) return std::nullopt;
      p = q;
      if (!end->empty()) {  // [a-[:digit:]]
        set.never = true;
        continue;
      }
      for (int c = low; c <= high; ++c) set.bytes.set(c);  // empty when reversed
      continue;
    }
    set.bytes.set(low);
  }
  set.end = p + 1;
  if (negate) set.bytes.flip();
  return set;
}

// A component pattern as single-byte matchers and stars.
struct Token {
  enum class Kind { kStar, kByte, kAnyByte, kSet } kind = Kind::kByte;
  unsigned char byte = 0;
  std::bitset<256> set;
};

// Nothing when the pattern can match nothing (a trailing backslash, an
// ill-formed bracket expression): fnmatch's FNM_NOMATCH for every text.
std::optional<std::vector<Token>> Tokenize(std::string_view pattern) {
  std::vector<Token> tokens;
  for (std::size_t at = 0; at < pattern.size();) {
    Token token;
    const char c = pattern[at];
    if (c == '*') {
      ++at;
      if (!tokens.empty() && tokens.back().kind == Token::Kind::kStar) continue;
      token.kind = Token::Kind::kStar;
    } else if (c == '?') {
      ++at;
      token.kind = Token::Kind::kAnyByte;
    } else if (c == '\\') {
      if (at + 1 >= pattern.size()) return std::nullopt;
      token.byte = static_cast<unsigned char>(pattern[at + 1]);
      at += 2;
    } else if (c == '[') {
      std::optional<BracketSet> set = ParseBracket(pattern, at);
      if (!set) {  // unterminated: a literal '['
        token.byte = '[';
        ++at;
      } else {
        if (set->never) return std::nullopt;
        token.kind = Token::Kind::kSet;
        token.set = set->bytes;
        at = set->end;
      }
    } else {
      token.byte = static_cast<unsigned char>(c);
      ++at;
    }
    tokens.push_back(token);
  }
  return tokens;
}

bool Reads(const Token& token, unsigned char c) {
  switch (token.kind) {
    case Token::Kind::kStar:
    case Token::Kind::kAnyByte: return true;
    case Token::Kind::kByte: return token.byte == c;
    case Token::Kind::kSet: return token.set.test(c);
  }
  return false;
}

bool MatchTokens(const std::vector<Token>& tokens, std::string_view text, GlobWork* work) {
  text = text.substr(0, text.find('\0'));
  // An NFA over token positions: states[i] is "the first i tokens have
  // read the text so far"; a star reads a byte and stays, or is skipped.
  const std::size_t n = tokens.size();
  std::vector<char> states(n + 1, 0);
  std::vector<char> next(n + 1, 0);
  auto close = [&](std::vector<char>* set) {
    for (std::size_t i = 0; i < n; ++i) {
      if ((*set)[i] && tokens[i].kind == Token::Kind::kStar) (*set)[i + 1] = 1;
    }
  };
  states[0] = 1;
  close(&states);
  for (char ch : text) {
    std::fill(next.begin(), next.end(), 0);
    bool alive = false;
    for (std::size_t i = 0; i < n; ++i) {
      if (!states[i]) continue;
      if (work != nullptr) ++work->character_steps;
      const Token& token = tokens[i];
      if (!Reads(token, static_cast<unsigned char>(ch))) continue;
      next[token.kind == Token::Kind::kStar ? i : i + 1] = 1;
      alive = true;
    }
    if (!alive) return false;
    close(&next);
    states.swap(next);
  }
  return states[n] != 0;
}

// One glob, read once: its components, each "**" or the tokens of a
// component pattern (nothing: a pattern that matches nothing).
struct Compiled {
  std::vector<bool> any;
  std::vector<std::optional<std::vector<Token>>> tokens;
  bool anchored = false;
};

Compiled Compile(std::string_view pattern) {
  if (pattern.rfind("./", 0) == 0) pattern.remove_prefix(2);
  Compiled compiled;
  compiled.anchored = pattern.find('/') != std::string_view::npos &&
                      pattern.find('/') != pattern.size() - 1;  // "dir/" is still unanchored
  for (const std::string& part : Split(pattern)) {
    const bool any = part == "**";
    compiled.any.push_back(any);
    compiled.tokens.push_back(any ? std::nullopt : Tokenize(std::string_view(part).substr(0, part.find('\0'))));
  }
  return compiled;
}

// Whether the compiled pattern matches the path components, the whole
// pattern against a prefix of the path, starting at any path component
// when it is not anchored. reach[p][s]: pattern parts [p..) can match from
// path component s; filled from the back, each cell once.
bool MatchComponents(const Compiled& pattern, const std::vector<std::string>& path, GlobWork* work) {
  const std::size_t np = pattern.any.size();
  const std::size_t ns = path.size();
  if (np == 0) return false;
  std::vector<std::vector<char>> reach(np + 1, std::vector<char>(ns + 1, 0));
  for (std::size_t s = 0; s <= ns; ++s) reach[np][s] = 1;  // a folder covers what is below it
  for (std::size_t p = np; p-- > 0;) {
    for (std::size_t s = ns + 1; s-- > 0;) {
      if (pattern.any[p]) {
        // "**" matches none (reach[p+1][s]) or one more component.
        reach[p][s] = reach[p + 1][s] || (s < ns && reach[p][s + 1]);
      } else if (s < ns && reach[p + 1][s + 1]) {
        if (work != nullptr) ++work->component_matches;
        reach[p][s] = pattern.tokens[p] && MatchTokens(*pattern.tokens[p], path[s], work);
      }
    }
  }
  if (pattern.anchored) return reach[0][0] != 0;
  for (std::size_t s = 0; s < ns; ++s) {
    if (reach[0][s]) return true;
  }
  return false;
}

// The literal bytes tokens[begin, end) read, or nothing when one of them
// is not a literal byte.
std::optional<std::string> Literal(const std::vector<Token>& tokens, std::size_t begin, std::size_t end) {
  std::string text;
  for (std::size_t i = begin; i < end; ++i) {
    if (tokens[i].kind != Token::Kind::kByte) return std::nullopt;
    text.push_back(static_cast<char>(tokens[i].byte));
  }
  return text;
}

}  // namespace

bool MatchComponent(std::string_view pattern, std::string_view text, GlobWork* work) {
  // fnmatch(3) reads C strings: both end at a NUL.
  std::optional<std::vector<Token>> tokens = Tokenize(pattern.substr(0, pattern.find('\0')));
  return tokens && MatchTokens(*tokens, text, work);
}

bool GlobMatch(const std::string& pattern, const std::string& path, GlobWork* work) {
  return MatchComponents(Compile(pattern), Split(path), work);
}

// Every pattern that can match is filed under one key that a path it
// matches must hold: each of its component patterns (not "**") matches
// exactly one path component, so a component pattern of literal bytes
// must be a path component, one with a literal start (end) must be a
// component's prefix (suffix). Of its keys, a pattern is filed under the
// one the fewest patterns share; a pattern with no literal start or end
// in any component ("*", "*x*") is tried against every path.
struct GlobSet::Index {
  enum class Where { kWhole, kPrefix, kSuffix };
  struct Key {
    Where where;
    std::string text;
  };
  std::vector<Compiled> patterns;
  std::unordered_map<std::string, std::vector<std::size_t>> whole, prefix, suffix;
  std::set<std::size_t> prefix_lengths, suffix_lengths;  // of the keys in prefix / suffix
  std::vector<std::size_t> unkeyed;

  std::unordered_map<std::string, std::vector<std::size_t>>& Map(Where where) {
    return where == Where::kWhole ? whole : where == Where::kPrefix ? prefix : suffix;
  }

  static std::vector<Key> KeysOf(const Compiled& pattern) {
    std::vector<Key> keys;
    for (std::size_t p = 0; p < pattern.any.size(); ++p) {
      if (pattern.any[p]) continue;
      const std::vector<Token>& tokens = *pattern.tokens[p];
      if (std::optional<std::string> whole = Literal(tokens, 0, tokens.size())) {
        keys.push_back({Where::kWhole, std::move(*whole)});
        continue;
      }
      std::size_t head = 0;
      while (tokens[head].kind == Token::Kind::kByte) ++head;  // a non-literal token is there
      std::size_t tail = tokens.size();
      while (tokens[tail - 1].kind == Token::Kind::kByte) --tail;
      if (head > 0) keys.push_back({Where::kPrefix, *Literal(tokens, 0, head)});
      if (tail < tokens.size()) keys.push_back({Where::kSuffix, *Literal(tokens, tail, tokens.size())});
    }
    return keys;
  }
};

GlobSet::GlobSet(const std::vector<std::string>& patterns) {
  auto built = std::make_shared<Index>();
  Index& index = *built;
  std::vector<std::vector<Index::Key>> keys;
  std::map<std::pair<Index::Where, std::string>, std::size_t> sharing;
  for (const std::string& text : patterns) {
    Compiled pattern = Compile(text);
    bool can_match = !pattern.any.empty();
    for (std::size_t p = 0; p < pattern.any.size(); ++p) can_match = can_match && (pattern.any[p] || pattern.tokens[p]);
    if (!can_match) continue;
    keys.push_back(Index::KeysOf(pattern));
    for (const Index::Key& key : keys.back()) ++sharing[{key.where, key.text}];
    index.patterns.push_back(std::move(pattern));
  }
  for (std::size_t i = 0; i < index.patterns.size(); ++i) {
    const Index::Key* best = nullptr;
    std::size_t best_sharing = 0;
    for (const Index::Key& key : keys[i]) {
      const std::size_t n = sharing[{key.where, key.text}];
      if (best == nullptr || n < best_sharing) {
        best = &key;
        best_sharing = n;
      }
    }
    if (best == nullptr) {
      index.unkeyed.push_back(i);
      continue;
    }
    if (best->where == Index::Where::kPrefix) index.prefix_lengths.insert(best->text.size());
    if (best->where == Index::Where::kSuffix) index.suffix_lengths.insert(best->text.size());
    index.Map(best->where)[best->text].push_back(i);
  }
  index_ = std::move(built);
}

bool GlobSet::empty() const { return index_ == nullptr || index_->patterns.empty(); }

bool GlobSet::MatchesAny(const std::string& path, GlobWork* work) const {
  if (empty()) return false;
  const Index& index = *index_;
  const std::vector<std::string> components = Split(path);
  auto any_of = [&](const std::vector<std::size_t>& candidates) {
    for (std::size_t i : candidates) {
      if (MatchComponents(index.patterns[i], components, work)) return true;
    }
    return false;
  };
  auto filed = [&](const std::unordered_map<std::string, std::vector<std::size_t>>& map, std::string_view key) {
    auto it = map.find(std::string(key));
    return it != map.end() && any_of(it->second);
  };
  for (const std::string& full : components) {
    const std::string_view component = std::string_view(full).substr(0, full.find('\0'));  // as MatchTokens reads it
    if (filed(index.whole, component)) return true;
    for (std::size_t n : index.prefix_lengths) {
      if (n > component.size()) break;
      if (filed(index.prefix, component.substr(0, n))) return true;
    }
    for (std::size_t n : index.suffix_lengths) {
      if (n > component.size()) break;
      if (filed(index.suffix, component.substr(component.size() - n))) return true;
    }
  }
  return any_of(index.unkeyed);
}

PathMatcher::PathMatcher(const PathFilter& filter)
    : include_(filter.include), exclude_(filter.exclude), include_all_(filter.include.empty()) {}

bool PathMatcher::Accepts(const std::string& relative_path) const {
  if (!include_all_ && !include_.MatchesAny(relative_path)) return false;
  return !exclude_.MatchesAny(relative_path);
}

}  // namespace tjr::source
