// Compiling a parsed pattern into a Pike VM program and running it (see
// regexp.h). The program and the simulation follow Russ Cox's "Regular
// Expression Matching: the Virtual Machine Approach" and Go's regexp/pike
// (leftmost-first priority: a thread that matches cuts off the threads of
// lower priority).
#include "gocompat/regexp.h"

#include <algorithm>
#include <cstdint>

#include "gocompat/regexp_syntax.h"
#include "gocompat/utf8.h"

namespace tjr::gocompat {

using regexp_syntax::Node;
using regexp_syntax::Op;
using regexp_syntax::RuneRange;

namespace {

// Go refuses programs it deems too large too ("expression too large"); this
// bound keeps the VM's per-match tables small.
constexpr std::size_t kMaxInstructions = 100'000;

enum class Kind : std::uint8_t { kClass, kAnyChar, kAnyCharNotNl, kSplit, kJump, kSave, kAssert, kMatch, kFail };

struct Inst {
  Kind kind = Kind::kFail;
  std::uint32_t x = 0;    // next (kSplit: the preferred branch)
  std::uint32_t y = 0;    // kSplit: the other branch
  std::uint32_t arg = 0;  // kClass: class index; kSave: slot; kAssert: the Op
};

thread_local std::size_t last_steps = 0;

bool IsWordChar(std::int32_t r) {
  return (r >= '0' && r <= '9') || (r >= 'A' && r <= 'Z') || (r >= 'a' && r <= 'z') || r == '_';
}

}  // namespace

struct Regexp::Program {
  std::string pattern;
  std::vector<Inst> insts;
  std::vector<std::vector<RuneRange>> classes;
  int captures = 0;
  std::uint32_t start = 0;
  bool anchored = false;  // starts with \A or ^ (not multi-line)
};

namespace {

// A compiled piece: its entry and the instruction fields that must point
// at whatever follows it (encoded pc * 2 + 0 for x, + 1 for y).
struct Frag {
  std::uint32_t entry = 0;
  std::vector<std::uint32_t> outs;
  bool nullable = false;
};

class Compiler {
 public:
  explicit Compiler(Regexp::Program* program) : program_(program) {}

  bool too_large() const { return too_large_; }

  Frag Compile(const Node& node) {
    switch (node.op) {
      case Op::kEmpty: return Nop();
      case Op::kNoMatch: {
        const std::uint32_t pc = Emit(Kind::kFail);
        return Frag{pc, {}, false};
      }
      case Op::kClass: {
        const std::uint32_t pc = Emit(Kind::kClass);
        if (too_large_) return Nop();
        program_->insts[pc].arg = static_cast<std::uint32_t>(program_->classes.size());
        program_->classes.push_back(node.ranges);
        return Frag{pc, {pc * 2}, false};
      }
      case Op::kAnyChar:
      case Op::kAnyCharNotNl: {
        const std::uint32_t pc = Emit(node.op == Op::kAnyChar ? Kind::kAnyChar : Kind::kAnyCharNotNl);
        return Frag{pc, {pc * 2}, false};
      }
      case Op::kBeginLine:
      case Op::kEndLine:
      case Op::kBeginText:
      case Op::kEndText:
      case Op::kWordBoundary:
      case Op::kNoWordBoundary: {
        const std::uint32_t pc = Emit(Kind::kAssert);
        if (!too_large_) program_->insts[pc].arg = static_cast<std::uint32_t>(node.op);
        return Frag{pc, {pc * 2}, true};
      }
      case Op::kCapture: {
        const std::uint32_t open = Emit(Kind::kSave);
        if (!too_large_) program_->insts[open].arg = static_cast<std::uint32_t>(2 * node.cap);
        Frag body = Compile(node.subs[0]);
        const std::uint32_t close = Emit(Kind::kSave);
        if (too_large_) return Nop();
        program_->insts[close].arg = static_cast<std::uint32_t>(2 * node.cap + 1);
        Patch(Frag{open, {open * 2}, true}, body.entry);
        Patch(body, close);
        return Frag{open, {close * 2}, body.nullable};
      }
      case Op::kConcat: {
        Frag all = Nop();
        bool first = true;
        for (const Node& sub : node.subs) {
          Frag next = Compile(sub);
          if (too_large_) return Nop();
          if (first) {
            all = std::move(next);
            first = false;
          } else {
            Patch(all, next.entry);
            all = Frag{all.entry, std::move(next.outs), all.nullable && next.nullable};
          }
        }
        return all;
      }
      case Op::kAlternate: {
        // split(a, split(b, c)): earlier branches first.
        std::vector<Frag> branches;
        for (const Node& sub : node.subs) {
          branches.push_back(Compile(sub));
          if (too_large_) return Nop();
        }
        Frag all = std::move(branches.back());
        for (std::size_t i = branches.size() - 1; i-- > 0;) {
          const std::uint32_t split = Emit(Kind::kSplit);
          if (too_large_) return Nop();
          program_->insts[split].x = branches[i].entry;
          program_->insts[split].y = all.entry;
          Frag joined{split, std::move(branches[i].outs), branches[i].nullable || all.nullable};
          joined.outs.insert(joined.outs.end(), all.outs.begin(), all.outs.end());
          all = std::move(joined);
        }
        return all;
      }
      case Op::kRepeat: return Repeat(node);
    }
    return Nop();
  }

  void Patch(const Frag& frag, std::uint32_t target) {
    for (std::uint32_t out : frag.outs) {
      Inst& inst = program_->insts[out / 2];
      (out % 2 == 0 ? inst.x : inst.y) = target;
    }
  }

  std::uint32_t Emit(Kind kind) {
    if (program_->insts.size() >= kMaxInstructions) {
      too_large_ = true;
      return 0;
    }
    program_->insts.push_back(Inst{kind});
    return static_cast<std::uint32_t>(program_->insts.size() - 1);
  }

 private:
  // An empty piece: a jump to what follows.
  Frag Nop() {
    const std::uint32_t pc = Emit(Kind::kJump);
    return Frag{pc, {pc * 2}, true};
  }

  // body*: L: split(body, out); body -> L (lazy: split(out, body)). A
  // nullable body is compiled as (body+)? instead, as Go does
  // (golang.org/issue/46123), which gives its empty iteration priority.
  Frag Star(Frag body, bool greedy) {
    if (body.nullable) return Quest(Plus(std::move(body), greedy), greedy);
    const std::uint32_t split = Emit(Kind::kSplit);
    if (too_large_) return Nop();
    Patch(body, split);
    Inst& inst = program_->insts[split];
    if (greedy) {
      inst.x = body.entry;
      return Frag{split, {split * 2 + 1}, true};
    }
    inst.y = body.entry;
    return Frag{split, {split * 2}, true};
  }

  // body?: split(body, out).
  Frag Quest(Frag body, bool greedy) {
    const std::uint32_t split = Emit(Kind::kSplit);
    if (too_large_) return Nop();
    Inst& inst = program_->insts[split];
    Frag out{split, std::move(body.outs), true};
    if (greedy) {
      inst.x = body.entry;
      out.outs.push_back(split * 2 + 1);
    } else {
      inst.y = body.entry;
      out.outs.push_back(split * 2);
    }
    return out;
  }

  // body+: body; split(body, out).
  Frag Plus(Frag body, bool greedy) {
    const std::uint32_t split = Emit(Kind::kSplit);
    if (too_large_) return Nop();
    Patch(body, split);
    Inst& inst = program_->insts[split];
    if (greedy) {
      inst.x = body.entry;
      return Frag{body.entry, {split * 2 + 1}, body.nullable};
    }
    inst.y = body.entry;
    return Frag{body.entry, {split * 2}, body.nullable};
  }

  // sub{min,max} as Go's simplify writes it: min copies, then either sub*
  // (no max) or max-min nested optional copies: x{2,5} = xx(x(x(x)?)?)?.
  Frag Repeat(const Node& node) {
    const Node& sub = node.subs[0];
    const int min = node.min;
    const int max = node.max;
    if (max == -1) {
      if (min == 0) return Star(Compile(sub), node.greedy);
      if (min == 1) return Plus(Compile(sub), node.greedy);
    }
    if (min == 0 && max == 1) return Quest(Compile(sub), node.greedy);
    if (min == 0 && max == 0) return Nop();
    Frag all = Nop();
    auto append = [&](Frag next) {
      Patch(all, next.entry);
      all = Frag{all.entry, std::move(next.outs), all.nullable && next.nullable};
    };
    const int copies = max == -1 ? min - 1 : min;
    for (int i = 0; i < copies && !too_large_; ++i) append(Compile(sub));
    if (too_large_) return Nop();
    if (max == -1) {
      append(Plus(Compile(sub), node.greedy));
      return all;
    }
    // The optional tail, built inside out.
    if (max > min) {
      Frag tail = Quest(Compile(sub), node.greedy);
      for (int i = min + 1; i < max && !too_large_; ++i) {
        Frag body = Compile(sub);
        if (too_large_) return Nop();
        Patch(body, tail.entry);
        tail = Quest(Frag{body.entry, std::move(tail.outs), body.nullable && tail.nullable}, node.greedy);
      }
      if (too_large_) return Nop();
      append(std::move(tail));
    }
    return all;
  }

  Regexp::Program* program_;
  bool too_large_ = false;
};

// Threads of one step: a sparse set of program counters in priority order,
// each with its submatch slots.
class ThreadList {
 public:
  ThreadList(std::size_t size, std::size_t slots) : sparse_(size), dense_(size), slots_(slots), caps_(size * slots) {}
  bool Contains(std::uint32_t pc) const {
    const std::uint32_t i = sparse_[pc];
    return i < count_ && dense_[i] == pc;
  }
  std::size_t Add(std::uint32_t pc) {
    sparse_[pc] = static_cast<std::uint32_t>(count_);
    dense_[count_] = pc;
    return count_++;
  }
  void Clear() { count_ = 0; }
  std::size_t size() const { return count_; }
  std::uint32_t pc(std::size_t i) const { return dense_[i]; }
  std::ptrdiff_t* caps(std::size_t i) { return caps_.data() + i * slots_; }

 private:
  std::vector<std::uint32_t> sparse_;
  std::vector<std::uint32_t> dense_;
  std::size_t count_ = 0;
  std::size_t slots_;
  std::vector<std::ptrdiff_t> caps_;
};

class Machine {
 public:
  Machine(const Regexp::Program& program, std::string_view text, std::size_t slots)
      : program_(program),
        text_(text),
        slots_(slots),
        current_(program.insts.size(), slots),
        next_(program.insts.size(), slots),
        cap_(slots, -1) {}

  // Runs the search; fills `match` (slots) when wanted. Returns whether
  // something matched.
  bool Run(std::vector<std::ptrdiff_t>* match) {
    bool matched = false;
    std::size_t pos = 0;
    for (;;) {
      if (!matched && (pos == 0 || !program_.anchored)) {
        std::fill(cap_.begin(), cap_.end(), -1);
        Add(&current_, program_.start, pos);
      }
      if (current_.size() == 0) break;
      Rune rune{0, 0};
      if (pos < text_.size()) rune = DecodeRune(text_.substr(pos));
      next_.Clear();
      for (std::size_t i = 0; i < current_.size(); ++i) {
        ++last_steps;
        const Inst& inst = program_.insts[current_.pc(i)];
        if (inst.kind == Kind::kMatch) {
          if (match == nullptr) return true;
          std::copy(current_.caps(i), current_.caps(i) + slots_, match->begin());
          matched = true;
          break;  // threads of lower priority lose
        }
        if (pos >= text_.size() || !Reads(inst, rune.value)) continue;
        std::copy(current_.caps(i), current_.caps(i) + slots_, cap_.begin());
        Add(&next_, inst.x, pos + rune.size);
      }
      std::swap(current_, next_);
      if (pos >= text_.size()) break;
      pos += rune.size;
    }
    return matched;
  }

 private:
  bool Reads(const Inst& inst, char32_t r) const {
    switch (inst.kind) {
      case Kind::kAnyChar: return true;
      case Kind::kAnyCharNotNl: return r != '\n';
      case Kind::kClass: {
        const std::vector<RuneRange>& ranges = program_.classes[inst.arg];
        auto it = std::upper_bound(ranges.begin(), ranges.end(), r,
                                   [](char32_t value, const RuneRange& range) { return value < range.lo; });
        return it != ranges.begin() && r <= std::prev(it)->hi;
      }
      default: return false;
    }
  }

  // regexp/syntax EmptyOpContext at `pos`.
  bool Holds(Op op, std::size_t pos) const {
    const std::int32_t before = pos == 0 ? -1 : static_cast<std::int32_t>(DecodeLastRune(text_.substr(0, pos)).value);
    const std::int32_t after = pos >= text_.size() ? -1 : static_cast<std::int32_t>(DecodeRune(text_.substr(pos)).value);
    switch (op) {
      case Op::kBeginText: return before < 0;
      case Op::kEndText: return after < 0;
      case Op::kBeginLine: return before < 0 || before == '\n';
      case Op::kEndLine: return after < 0 || after == '\n';
      case Op::kWordBoundary: return IsWordChar(before) != IsWordChar(after);
      case Op::kNoWordBoundary: return IsWordChar(before) == IsWordChar(after);
      default: return false;
    }
  }

  // Follows the empty transitions from `pc0` at `pos` with the slots in
  // cap_, adding each instruction reached to `list` in priority order. An
  // explicit stack: no recursion however large the program.
  void Add(ThreadList* list, std::uint32_t pc0, std::size_t pos) {
    stack_.clear();
    stack_.push_back({pc0, false, 0, 0});
    while (!stack_.empty()) {
      const Item entry = stack_.back();
      stack_.pop_back();
      if (entry.restore) {
        cap_[entry.slot] = entry.value;
        continue;
      }
      if (list->Contains(entry.pc)) continue;
      ++last_steps;
      const std::size_t index = list->Add(entry.pc);
      const Inst& inst = program_.insts[entry.pc];
      switch (inst.kind) {
        case Kind::kJump: stack_.push_back({inst.x, false, 0, 0}); break;
        case Kind::kSplit:
          stack_.push_back({inst.y, false, 0, 0});
          stack_.push_back({inst.x, false, 0, 0});
          break;
        case Kind::kSave:
          if (inst.arg < slots_) {
            stack_.push_back({0, true, inst.arg, cap_[inst.arg]});
            cap_[inst.arg] = static_cast<std::ptrdiff_t>(pos);
          }
          stack_.push_back({inst.x, false, 0, 0});
          break;
        case Kind::kAssert:
          if (Holds(static_cast<Op>(inst.arg), pos)) stack_.push_back({inst.x, false, 0, 0});
          break;
        case Kind::kFail: break;
        default: std::copy(cap_.begin(), cap_.end(), list->caps(index)); break;
      }
    }
  }

  // A program counter to explore, or a slot to restore on the way back.
  struct Item {
    std::uint32_t pc;
    bool restore;
    std::uint32_t slot;
    std::ptrdiff_t value;
  };
  const Regexp::Program& program_;
  std::string_view text_;
  std::size_t slots_;
  ThreadList current_;
  ThreadList next_;
  std::vector<std::ptrdiff_t> cap_;
  std::vector<Item> stack_;
};

}  // namespace

Result<Regexp> Regexp::Compile(std::string_view pattern) {
  Result<regexp_syntax::Parsed> parsed = regexp_syntax::Parse(pattern);
  if (!parsed.ok()) return parsed.take_error();
  auto program = std::make_shared<Program>();
  program->pattern = std::string(pattern);
  program->captures = parsed->captures;
  // The whole match is capture 0.
  Node whole;
  whole.op = Op::kCapture;
  whole.cap = 0;
  whole.subs.push_back(std::move(parsed->root));
  Compiler compiler(program.get());
  Frag frag = compiler.Compile(whole);
  const std::uint32_t match = compiler.Emit(Kind::kMatch);
  if (compiler.too_large()) {
    return MakeError(Location{}, "", "error parsing regexp: expression too large: `" + std::string(pattern) + "`");
  }
  compiler.Patch(frag, match);
  program->start = frag.entry;
  // Anchored when every path starts with \A: the pattern's first item.
  const Node& root = whole.subs[0];
  const Node* first = &root;
  while (first->op == Op::kConcat && !first->subs.empty()) first = &first->subs[0];
  program->anchored = first->op == Op::kBeginText;
  return Regexp(std::move(program));
}

bool Regexp::Match(std::string_view text) const {
  last_steps = 0;
  Machine machine(*program_, text, 0);
  return machine.Run(nullptr);
}

std::optional<std::vector<std::ptrdiff_t>> Regexp::FindSubmatchIndex(std::string_view text) const {
  last_steps = 0;
  const std::size_t slots = 2 * static_cast<std::size_t>(program_->captures + 1);
  Machine machine(*program_, text, slots);
  std::vector<std::ptrdiff_t> match(slots, -1);
  if (!machine.Run(&match)) return std::nullopt;
  return match;
}

const std::string& Regexp::pattern() const { return program_->pattern; }
int Regexp::captures() const { return program_->captures; }
std::size_t Regexp::LastSteps() { return last_steps; }

}  // namespace tjr::gocompat
