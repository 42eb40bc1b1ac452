#include "diff/markdown_format.h"

#include <algorithm>
#include <string_view>

namespace tjr::diff {
namespace {

// Room kept free for the truncation notice and the first names it lists.
constexpr std::size_t kNoticeReserve = 640;
// An object cut shorter than this is left out instead: a few lines of a
// diff tell a reviewer nothing.
constexpr std::size_t kMinimumCut = 1024;

std::string Escape(std::string_view text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out.push_back(c);
    }
  }
  return out;
}

// A code fence longer than any run of backticks inside the block, so YAML
// holding ``` cannot end the block early (CommonMark's rule).
std::string Fence(std::string_view content) {
  std::size_t longest = 0;
  std::size_t run = 0;
  for (char c : content) {
    run = c == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
  }
  return std::string(std::max<std::size_t>(3, longest + 1), '`');
}

std::string CodeBlock(std::string_view info, std::string_view content) {
  std::string fence = Fence(content);
  std::string out = fence + std::string(info) + "\n";
  out += content;
  if (!content.empty() && content.back() != '\n') out += "\n";
  return out + fence + "\n";
}

std::string Plural(std::size_t n, std::string_view word) {
  return std::to_string(n) + " " + std::string(word) + (n == 1 ? "" : "s");
}

std::string ObjectTitle(const ObjectChange& change) {
  return std::string(ChangeName(change.type)) + " <code>" + Escape(DisplayName(change.id)) +
         "</code> (TrainJob " + Escape(change.train_job) + ")";
}

// The diagnostics of one side as a code block, as many lines as `budget`
// allows.
std::string FindingsBlock(const DiffResult& result, Side side, std::size_t budget) {
  std::string lines;
  std::size_t shown = 0;
  std::size_t total = 0;
  for (const RevisionFinding& f : result.findings) {
    if (f.side != side) continue;
    ++total;
    std::string line = f.diagnostic.ToString() + "\n";
    if (lines.size() + line.size() > budget) continue;
    if (shown + 1 != total) continue;  // keep the shown lines a prefix
    lines += line;
    ++shown;
  }
  if (shown < total) lines += "... " + std::to_string(total - shown) + " more (run tjrender diff)\n";
  return CodeBlock("text", lines);
}

std::size_t FindingCount(const DiffResult& result, Side side) {
  return static_cast<std::size_t>(std::count_if(result.findings.begin(), result.findings.end(),
                                                [&](const RevisionFinding& f) { return f.side == side; }));
}

std::string Header(const DiffResult& result, const MarkdownOptions& options) {
  std::string out = "<!-- tjrender diff -->\n";
  out += "### tjrender diff <code>" + Escape(options.base_label) + "</code> → <code>" +
         Escape(options.head_label) + "</code>\n\n";
  if (result.NothingCompared()) {
    out += "**Nothing compared**: no TrainJob rendered at head without errors (" +
           std::to_string(result.ErrorCount(Side::kHead)) +
           " at head, below), so what this change does to the cluster is unknown.\n\n";
  } else if (result.changes.empty()) {
    out += "**No differences** in the rendered objects (" + std::to_string(result.unchanged) + " unchanged, " +
           result.TrainJobsCompared() + ").\n\n";
  } else {
    out += "**" + std::to_string(result.Count(ChangeType::kAdded)) + " added, " +
           std::to_string(result.Count(ChangeType::kRemoved)) + " removed, " +
           std::to_string(result.Count(ChangeType::kChanged)) + " changed**, " +
           std::to_string(result.unchanged) + " unchanged (" + result.TrainJobsCompared() + ").\n\n";
  }
  // A quarter of what is left after the counts goes to each side's findings
  // at most.
  const std::size_t findings_budget =
      options.max_bytes > out.size() + kNoticeReserve ? (options.max_bytes - out.size() - kNoticeReserve) / 4 : 0;
  std::vector<std::string> refused = result.Refused(Side::kHead);
  if (FindingCount(result, Side::kHead) > 0) {
    const std::size_t errors = result.ErrorCount(Side::kHead);
    const std::size_t warnings = FindingCount(result, Side::kHead) - errors;
    out += errors == 0 ? "**Warnings at head**" : warnings == 0 ? "**Errors at head**" : "**Errors and warnings at head**";
    if (!refused.empty()) {
      out += ": " + Plural(refused.size(), "TrainJob") + " the cluster would refuse";
    }
    out += "\n\n" + FindingsBlock(result, Side::kHead, findings_budget) + "\n";
  }
  if (FindingCount(result, Side::kBase) > 0) {
    out += "<details><summary>Findings at base (" + std::to_string(FindingCount(result, Side::kBase)) +
           ", present before this change)</summary>\n\n" + FindingsBlock(result, Side::kBase, findings_budget) +
           "\n</details>\n\n";
  }
  return out;
}

std::string Section(const ObjectChange& change, std::string_view diff, bool cut) {
  std::string out = "<details><summary>" + ObjectTitle(change) + "</summary>\n\n";
  out += CodeBlock("diff", diff);
  if (cut) out += "\n*This diff is cut short to fit the comment.*\n";
  return out + "\n</details>\n\n";
}

}  // namespace

std::string FormatMarkdown(const DiffResult& result, const MarkdownOptions& options) {
  std::string out = Header(result, options);
  const std::size_t limit = options.max_bytes > kNoticeReserve ? options.max_bytes - kNoticeReserve : 0;
  std::size_t shown = 0;
  bool cut = false;
  for (const ObjectChange& change : result.changes) {
    std::string section = Section(change, change.diff, false);
    if (out.size() + section.size() <= limit) {
      out += section;
      ++shown;
      continue;
    }
    // The first object that does not fit is shown up to a line boundary
    // when enough room is left for that to be useful.
    std::size_t frame = Section(change, "", true).size() + Fence(change.diff).size() * 2;
    if (out.size() + frame + kMinimumCut <= limit) {
      std::size_t room = limit - out.size() - frame;
      std::size_t end = change.diff.rfind('\n', room - 1);
      if (end != std::string::npos) {
        std::string_view head(change.diff.data(), end + 1);
        std::string part = Section(change, head, true);
        if (out.size() + part.size() <= limit) {
          out += part;
          ++shown;
          cut = true;
        }
      }
    }
    break;
  }
  if (shown == result.changes.size() && !cut) return out;

  const std::size_t hidden = result.changes.size() - shown;
  std::string notice = "> [!WARNING]\n> Truncated to fit GitHub's " + std::to_string(options.max_bytes) +
                       "-character comment limit: ";
  notice += std::to_string(hidden) + " of " + Plural(result.changes.size(), "object") + " not shown";
  if (cut) notice += ", one cut short";
  notice += ". Run `tjrender diff` for the whole diff.\n";
  out += notice;
  // The names of the objects left out, while they fit.
  std::string more;
  for (std::size_t i = shown; i < result.changes.size(); ++i) {
    std::string line = "- " + std::string(ChangeName(result.changes[i].type)) + " <code>" +
                       Escape(DisplayName(result.changes[i].id)) + "</code>\n";
    // What closes the list if the next name does not fit; the previous
    // round made sure the closing line for this one fits.
    const std::size_t after = result.changes.size() - i - 1;
    std::string rest = after > 0 ? "- and " + std::to_string(after) + " more\n" : "";
    if (out.size() + 1 + more.size() + line.size() + rest.size() > options.max_bytes) {
      more += "- and " + std::to_string(result.changes.size() - i) + " more\n";
      break;
    }
    more += line;
  }
  if (!more.empty()) out += "\n" + more;
  return out;
}

}  // namespace tjr::diff
