#include "docdiff/unified_diff.h"

#include <algorithm>
#include <vector>

namespace tjr::docdiff {
namespace {

// A line keeps its '\n' so that a last line without one differs from the
// same text with one, as in diff(1).
std::vector<std::string_view> SplitLines(std::string_view text) {
  std::vector<std::string_view> lines;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    end = end == std::string_view::npos ? text.size() : end + 1;
    lines.push_back(text.substr(start, end - start));
    start = end;
  }
  return lines;
}

enum class OpType { kEqual, kDelete, kInsert };

struct Op {
  OpType type;
  std::size_t a;  // position in `before` when the op starts
  std::size_t b;  // position in `after` when the op starts
};

using Lines = std::vector<std::string_view>;

// Myers' greedy forward search on a[a_lo, a_hi) and b[b_lo, b_hi). Appends
// the edit script to `ops` and returns true, or returns false (leaving
// `ops` alone) when more than `max_d` edits would be needed.
bool MyersOps(const Lines& a, std::size_t a_lo, std::size_t a_hi, const Lines& b,
              std::size_t b_lo, std::size_t b_hi, std::size_t max_d, std::vector<Op>* ops) {
  const long n = static_cast<long>(a_hi - a_lo);
  const long m = static_cast<long>(b_hi - b_lo);
  const long limit = std::min<long>(n + m, static_cast<long>(max_d));
  const long offset = limit + 1;
  std::vector<long> v(static_cast<std::size_t>(2 * offset + 1), 0);
  // trace[d] holds v[-d..d] as it was before step d extended it.
  std::vector<std::vector<long>> trace;
  auto at = [&](long k) -> long& { return v[static_cast<std::size_t>(k + offset)]; };
  long found_d = -1;
  for (long d = 0; d <= limit && found_d < 0; ++d) {
    trace.emplace_back(v.begin() + (offset - d), v.begin() + (offset + d + 1));
    for (long k = -d; k <= d; k += 2) {
      long x = (k == -d || (k != d && at(k - 1) < at(k + 1))) ? at(k + 1) : at(k - 1) + 1;
      long y = x - k;
      while (x < n && y < m &&
             a[a_lo + static_cast<std::size_t>(x)] == b[b_lo + static_cast<std::size_t>(y)]) {
        ++x;
        ++y;
      }
      at(k) = x;
      if (x >= n && y >= m) {
        found_d = d;
        break;
      }
    }
  }
  if (found_d < 0) return false;

  std::vector<Op> reversed;
  long x = n;
  long y = m;
  for (long d = found_d; d > 0; --d) {
    // trace[d] covers diagonals -d..d; diagonal k is at index k + d.
    const std::vector<long>& prev = trace[static_cast<std::size_t>(d)];
    auto prev_x = [&](long k) { return prev[static_cast<std::size_t>(k + d)]; };
    long k = x - y;
    long prev_k = (k == -d || (k != d && prev_x(k - 1) < prev_x(k + 1))) ? k + 1 : k - 1;
    long start_x = prev_x(prev_k);
    long move_end_x = prev_k == k + 1 ? start_x : start_x + 1;
    while (x > move_end_x) {
      --x;
      --y;
      reversed.push_back({OpType::kEqual, a_lo + static_cast<std::size_t>(x),
                          b_lo + static_cast<std::size_t>(y)});
    }
    if (prev_k == k + 1) {  // came down: an insertion of b[y - 1]
      --y;
      reversed.push_back({OpType::kInsert, a_lo + static_cast<std::size_t>(x),
                          b_lo + static_cast<std::size_t>(y)});
    } else {  // came right: a deletion of a[x - 1]
      --x;
      reversed.push_back({OpType::kDelete, a_lo + static_cast<std::size_t>(x),
                          b_lo + static_cast<std::size_t>(y)});
    }
  }
  while (x > 0 && y > 0) {
    --x;
    --y;
    reversed.push_back(
        {OpType::kEqual, a_lo + static_cast<std::size_t>(x), b_lo + static_cast<std::size_t>(y)});
  }
  ops->insert(ops->end(), reversed.rbegin(), reversed.rend());
  return true;
}

std::vector<Op> EditScript(const Lines& a, const Lines& b, std::size_t max_d) {
  std::size_t prefix = 0;
  while (prefix < a.size() && prefix < b.size() && a[prefix] == b[prefix]) ++prefix;
  std::size_t suffix = 0;
  while (suffix < a.size() - prefix && suffix < b.size() - prefix &&
         a[a.size() - 1 - suffix] == b[b.size() - 1 - suffix]) {
    ++suffix;
  }
  std::vector<Op> ops;
  for (std::size_t i = 0; i < prefix; ++i) ops.push_back({OpType::kEqual, i, i});
  const std::size_t a_hi = a.size() - suffix;
  const std::size_t b_hi = b.size() - suffix;
  if (!MyersOps(a, prefix, a_hi, b, prefix, b_hi, max_d, &ops)) {
    for (std::size_t i = prefix; i < a_hi; ++i) ops.push_back({OpType::kDelete, i, prefix});
    for (std::size_t j = prefix; j < b_hi; ++j) ops.push_back({OpType::kInsert, a_hi, j});
  }
  for (std::size_t i = 0; i < suffix; ++i) {
    ops.push_back({OpType::kEqual, a_hi + i, b_hi + i});
  }
  return ops;
}

std::string RangeText(std::size_t start, std::size_t count) {
  // diff(1): an empty range names the line before it; a one-line range
  // leaves out its count.
  std::string text = std::to_string(count == 0 ? start : start + 1);
  if (count != 1) text += "," + std::to_string(count);
  return text;
}

void AppendLine(char marker, std::string_view line, std::string* out) {
  out->push_back(marker);
  out->append(line);
  if (line.empty() || line.back() != '\n') out->append("\n\\ No newline at end of file\n");
}

}  // namespace

std::string UnifiedDiff(std::string_view before, std::string_view after,
                        std::string_view before_label, std::string_view after_label,
                        std::size_t context, std::size_t max_edit_distance) {
  if (before == after) return {};
  const Lines a = SplitLines(before);
  const Lines b = SplitLines(after);
  const std::vector<Op> ops = EditScript(a, b, max_edit_distance);

  std::string out;
  out.append("--- ").append(before_label).append("\n");
  out.append("+++ ").append(after_label).append("\n");
  std::size_t i = 0;
  while (i < ops.size()) {
    while (i < ops.size() && ops[i].type == OpType::kEqual) ++i;
    if (i == ops.size()) break;
    // A hunk starts `context` equal lines before its first change and grows
    // while the next change is at most 2 * context equal lines away.
    std::size_t start = i >= context ? i - context : 0;
    std::size_t end = i;
    for (;;) {
      while (end < ops.size() && ops[end].type != OpType::kEqual) ++end;
      std::size_t next = end;
      while (next < ops.size() && ops[next].type == OpType::kEqual) ++next;
      if (next < ops.size() && next - end <= 2 * context) {
        end = next;
        continue;
      }
      end = std::min(end + context, ops.size());
      break;
    }
    std::size_t a_count = 0;
    std::size_t b_count = 0;
    for (std::size_t k = start; k < end; ++k) {
      if (ops[k].type != OpType::kInsert) ++a_count;
      if (ops[k].type != OpType::kDelete) ++b_count;
    }
    out += "@@ -" + RangeText(ops[start].a, a_count) + " +" + RangeText(ops[start].b, b_count) +
           " @@\n";
    for (std::size_t k = start; k < end; ++k) {
      switch (ops[k].type) {
        case OpType::kEqual: AppendLine(' ', a[ops[k].a], &out); break;
        case OpType::kDelete: AppendLine('-', a[ops[k].a], &out); break;
        case OpType::kInsert: AppendLine('+', b[ops[k].b], &out); break;
      }
    }
    i = end;
  }
  return out;
}

}  // namespace tjr::docdiff
