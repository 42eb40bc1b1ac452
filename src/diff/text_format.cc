#include "diff/text_format.h"

#include <string_view>

namespace tjr::diff {
namespace {

constexpr std::string_view kReset = "\x1b[0m";
constexpr std::string_view kBold = "\x1b[1m";
constexpr std::string_view kRed = "\x1b[31m";
constexpr std::string_view kGreen = "\x1b[32m";
constexpr std::string_view kYellow = "\x1b[33m";
constexpr std::string_view kCyan = "\x1b[36m";

class Painter {
 public:
  explicit Painter(bool color) : color_(color) {}
  void Append(std::string_view color, std::string_view text, std::string* out) const {
    if (color_ && !text.empty()) {
      out->append(color).append(text).append(kReset);
    } else {
      out->append(text);
    }
  }

 private:
  bool color_;
};

std::string_view ChangeColor(ChangeType type) {
  switch (type) {
    case ChangeType::kAdded: return kGreen;
    case ChangeType::kRemoved: return kRed;
    case ChangeType::kChanged: return kYellow;
  }
  return kYellow;
}

// Colours each line of a unified diff by its marker; the two file lines
// that open it are headers, not removals and additions.
void AppendDiff(std::string_view diff, const Painter& paint, std::string* out) {
  std::size_t start = 0;
  std::size_t line_number = 0;
  while (start < diff.size()) {
    std::size_t end = diff.find('\n', start);
    end = end == std::string_view::npos ? diff.size() : end;
    std::string_view line = diff.substr(start, end - start);
    std::string_view color;
    if (line_number < 2) {
      color = kBold;
    } else if (line.starts_with("@@")) {
      color = kCyan;
    } else if (line.starts_with("-")) {
      color = kRed;
    } else if (line.starts_with("+")) {
      color = kGreen;
    }
    if (color.empty()) {
      out->append(line);
    } else {
      paint.Append(color, line, out);
    }
    out->push_back('\n');
    start = end + 1;
    ++line_number;
  }
}

std::string Plural(std::size_t n, std::string_view word) {
  return std::to_string(n) + " " + std::string(word) + (n == 1 ? "" : "s");
}

void AppendRefused(const DiffResult& result, Side side, const Painter& paint, std::string* out) {
  for (const std::string& train_job : result.Refused(side)) {
    std::size_t errors = 0;
    for (const RevisionFinding& f : result.findings) {
      if (f.side == side && f.train_job == train_job && f.diagnostic.severity == Severity::kError) ++errors;
    }
    paint.Append(side == Side::kHead ? kRed : std::string_view(), std::string("refused at ") + SideName(side),
                 out);
    *out += ": TrainJob " + train_job + " (" + Plural(errors, "error") + ")\n";
  }
}

}  // namespace

std::string FormatText(const DiffResult& result, const TextOptions& options) {
  const Painter paint(options.color);
  std::string out;
  if (result.NothingCompared()) {
    out += "nothing compared: no TrainJob rendered at head without errors (" +
           Plural(result.ErrorCount(Side::kHead), "error") +
           " at head, on stderr), so what this change does to the cluster is unknown\n";
  } else if (result.changes.empty()) {
    out += "no differences (" + Plural(result.unchanged, "object") + " unchanged, " + result.TrainJobsCompared() +
           ")\n";
  } else {
    out += result.CountsText() + "\n";
  }
  for (const ObjectChange& change : result.changes) {
    std::string name = ChangeName(change.type);
    out += "  ";
    paint.Append(ChangeColor(change.type), name, &out);
    out += std::string(9 - name.size(), ' ') + DisplayName(change.id) + "\n";
  }
  AppendRefused(result, Side::kHead, paint, &out);
  AppendRefused(result, Side::kBase, paint, &out);
  for (const ObjectChange& change : result.changes) {
    out += "\n";
    paint.Append(kBold,
                 "=== " + std::string(ChangeName(change.type)) + " " + DisplayName(change.id) +
                     " (TrainJob " + change.train_job + ") ===",
                 &out);
    out += "\n";
    AppendDiff(change.diff, paint, &out);
  }
  return out;
}

}  // namespace tjr::diff
