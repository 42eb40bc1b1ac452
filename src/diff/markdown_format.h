#pragma once

#include <cstddef>
#include <string>

#include "diff/compare.h"

namespace tjr::diff {

/// GitHub refuses issue and pull-request comments longer than this many
/// characters ("Body is too long (maximum is 65536 characters)").
inline constexpr std::size_t kGitHubCommentLimit = 65536;

struct MarkdownOptions {
  /// Revision names for the title.
  std::string base_label = "base";
  std::string head_label = "head";
  /// The comment never exceeds this many bytes. Bytes, because a character
  /// is at least one byte however GitHub counts (code points or UTF-16
  /// units), so the limit holds for either.
  std::size_t max_bytes = kGitHubCommentLimit;
};

/// A pull-request comment: a marker line (`<!-- tjrender diff -->`, for
/// bots that update one sticky comment), a title, the counts, HEAD's errors
/// and warnings in a code block (what `kubectl apply` would answer), BASE's
/// errors collapsed, then each
/// object in a collapsed `<details>` block with a `diff` code block. When
/// the whole would pass `max_bytes`, the objects that do not fit are left
/// out (the one that overflows is cut at a line), and a notice says how many
/// objects are not shown; the counts are always complete.
std::string FormatMarkdown(const DiffResult& result, const MarkdownOptions& options = {});

}  // namespace tjr::diff
